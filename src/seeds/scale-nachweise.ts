// Certificates at scale for one tenant (the list-plan checks, the bench): `count` certificates and a third as
// many proofs, spread over raw materials, schemes, locations, dates and states, written in one statement each
// with generate_series. As in a tenant that has worked for a while, most are used up (rest 0). They satisfy the tables' constraints, not every rule of the form: they exist to give
// the planner realistic statistics, not to be read by a person (the demo data are src/seeds/nachweise.ts).
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import { ROHSTOFFE, ZERTIFIZIERUNGSSYSTEME } from '../domain/rohstoffe.js';

const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;

export async function seedScaleNachweise(knex: Knex, opts: { mandant: string; count: number }): Promise<void> {
  const { mandant, count } = opts;
  await knex.transaction(async (trx) => {
    await setTenant(trx, mandant);
    const standorte = (await trx('standorte').where({ mandant }).orderBy('nr').pluck('nr')) as string[];
    const produkte = (await trx('produkte').where({ mandant }).whereIn('produktgruppe', ['biodiesel', 'hvo', 'bioethanol']).orderBy('nr').select('nr', 'produktgruppe')) as { nr: string; produktgruppe: string }[];
    const rohstoffe = ROHSTOFFE.map((r) => r.code);
    await trx.raw(
      `insert into nachweise (mandant, nr, ausstellungsdatum, zeitraum_von, zeitraum_bis, zertifizierungssystem, standort_nr, produkt_nr, produktgruppe,
         menge, einheit, menge_verbleibend, rohstoff, herkunftsland, abfall, nachhaltig, vorlaeufig, anlage_inbetriebnahme, gesamt_standardwert,
         thg, einsparung, schwelle, vergleichswert, basiswert, energiegehalt, thg_minderung_t, hinweise, storniert)
       select ?, 'S-' || i, current_date - (i % 540), current_date - (i % 540) - 90, current_date - (i % 540),
         (${sqlArray(ZERTIFIZIERUNGSSYSTEME)})[1 + i % ${ZERTIFIZIERUNGSSYSTEME.length}],
         (${sqlArray(standorte)})[1 + i % ${standorte.length}],
         (${sqlArray(produkte.map((p) => p.nr))})[1 + i % ${produkte.length}],
         (${sqlArray(produkte.map((p) => p.produktgruppe))})[1 + i % ${produkte.length}],
         1000 + (i % 97) * 1000, 'L', case when i % 5 = 0 then 1000 + (i % 97) * 1000 - (i % 7) * 100 else 0 end,
         (${sqlArray(rohstoffe)})[1 + i % ${rohstoffe.length}], 'DE', i % 3 = 0, true, i % 11 = 0, date '2019-01-01',
         10 + i % 30, 10 + i % 30, round((94 - (10 + i % 30)) / 94.0 * 100, 2), 60, 94, 94.1, (1000 + (i % 97) * 1000) * 33,
         (1000 + (i % 97) * 1000) * 33 * (94.1 - (10 + i % 30)) / 1e6,
         case when i % 13 = 0 then '[{"code":"SUMME_WEICHT_AB","field":"gesamtStandardwert"}]'::jsonb else '[]'::jsonb end, i % 29 = 0
       from generate_series(1, ?) as i`,
      [mandant, count],
    );
    await trx.raw(
      `insert into nachweisbescheinigungen (mandant, nr, nachweis_nr, lieferdatum, volumen, volumen_verbleibend, einheit, standort_nr, produkt_nr,
         produktgruppe, thg_emission, rohstoff, anbauland, zertifizierungssystem, storniert)
       select n.mandant, 'SB-' || n.nr, n.nr, n.ausstellungsdatum, 100, case when right(n.nr, 1) in ('0', '5') then 100 else 0 end, n.einheit,
         n.standort_nr, n.produkt_nr, n.produktgruppe, n.thg, n.rohstoff, n.herkunftsland, n.zertifizierungssystem, false
       from nachweise n where n.mandant = ? and n.nr like 'S-%' and (substr(n.nr, 3))::int % 3 = 0`,
      [mandant],
    );
  });
  for (const table of ['nachweise', 'nachweisbescheinigungen']) await knex.raw(`analyze ${table}`);
}
