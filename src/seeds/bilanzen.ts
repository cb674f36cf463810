// Demo Bilanzen for DEMO and NORD, on top of the demo deliveries, certificates and partner rules: per tenant two
// closed Bilanzen of the last quarter (two locations, two products) with their allocation lines, reasons,
// deliveries not covered and POCs, and an open one of this quarter, ready to allocate (in a quarter's first days,
// when it holds nothing a certificate could cover yet, of the last quarter: still being balanced).
//
// Made with the feature's own commands (src/features/bilanzen/service.ts): the same rules and rows as a user's
// clicks, written by no user; the versions they add are marked as the demo's, and no audit entries are kept.
// Deterministic: the same demo data and day give the same Bilanzen.
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import { TenantScope } from '../db/scope.js';
import { DEMO_DATA } from '../db/versioned.js';
import { PRODUKTGRUPPEN } from '../domain/fuels.js';
import { BIOKOMPONENTE } from '../domain/ghg.js';
import { quartal } from '../features/bilanzen/schema.js';
import { abschliessen, anlegen, positionAnlegen, verteilen } from '../features/bilanzen/service.js';

/** The quarter before the one `heute` lies in. */
export function vorquartal(heute: string): { von: string; bis: string } {
  const q = quartal(heute);
  const tag = new Date(Date.parse(`${q.von}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return quartal(tag);
}

/** Certificates whose period ended before this day have expired by `heute` (the default expiry, 15 April of the next year). */
const gueltigSeit = (heute: string) => {
  const jahr = Number(heute.slice(0, 4));
  return heute > `${jahr}-04-15` ? `${jahr}-01-01` : `${jahr - 1}-01-01`;
};

/** SQL: the certificate group of a product group (BIOKOMPONENTE), as a CASE over `col`. */
const zertifikatGruppeSql = (col: string) => `(case ${col} ${PRODUKTGRUPPEN.map((g) => `when '${g}' then '${BIOKOMPONENTE[g]}'`).join(' ')} end)`;

export async function seedBilanzen(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  const heute = today.toISOString().slice(0, 10);
  const vor = vorquartal(heute);
  const jetzt = quartal(heute);
  for (const mandant of mandanten) {
    await setTenant(trx, mandant);
    if (await trx('bilanzen').where({ mandant }).first('id')) continue;
    const scope = new TenantScope(trx, mandant);
    // Written by no user: the demo data (versions are marked below, audit entries name no user).
    const actor = { user: { id: null as unknown as number }, mandant };
    const neu = async (wahl: Kandidat, z: { von: string; bis: string }, kommentar: string) => {
      const id = await anlegen(scope, actor, { standortNr: wahl.standort_nr, produktNr: wahl.produkt_nr, zeitraumVon: z.von, zeitraumBis: z.bis, kommentar, version: undefined });
      await positionenFuerLieferpartner(trx, scope, actor, id, wahl, z);
      return id;
    };
    // Two closed Bilanzen of the last quarter at two locations with two products (the lists' filters have
    // something to tell apart), then this quarter's open one, chosen afresh: the closed ones used certificates up.
    const [erste] = await kandidaten(trx, mandant, vor, heute);
    const weitere = (await kandidaten(trx, mandant, vor, heute, true)).filter((k) => k.standort_nr !== erste?.standort_nr);
    const zweite = weitere.find((k) => k.produkt_nr !== erste?.produkt_nr) ?? weitere[0];
    for (const wahl of [erste, zweite].filter(Boolean)) {
      const id = await neu(wahl, vor, 'Demo: Quartalsbilanz, abgeschlossen.');
      await verteilen(scope, actor, id, {}, heute);
      await abschliessen(scope, actor, id, {});
    }
    const offen = (await kandidaten(trx, mandant, jetzt, heute, true))[0];
    if (offen) await neu(offen, jetzt, 'Demo: laufendes Quartal, bereit zum Verteilen.');
    else {
      // The first days of a quarter may hold no delivery a certificate could cover yet. Then, as in practice,
      // the last quarter is still being balanced: the open Bilanz is of it, at a location and product not closed.
      const zu = new Set([erste, zweite].filter(Boolean).map((k) => `${k.standort_nr}|${k.produkt_nr}`));
      const spaet = (await kandidaten(trx, mandant, vor, heute, true)).find((k) => !zu.has(`${k.standort_nr}|${k.produkt_nr}`));
      if (spaet) await neu(spaet, vor, 'Demo: letztes Quartal, noch offen, bereit zum Verteilen.');
    }
    // Like the other demo data, the Bilanzen are not a user's doing: no audit entries of theirs.
    await trx('audit_log').where({ mandant, entity: 'bilanzen' }).whereNull('benutzer_id').delete();
    for (const table of ['nachweise_versionen', 'nachweisbescheinigungen_versionen']) {
      await trx(table).where({ mandant }).whereNull('benutzer_id').whereNull('quelle').update({ quelle: DEMO_DATA });
    }
  }
}

interface Kandidat {
  standort_nr: string;
  produkt_nr: string;
}

/**
 * The locations and products of a period, best first: where its bio demand exceeds the certificates (but some exist): the Bilanz then shows covered lines and
 * deliveries not covered; then by what can be covered (the more lines the better), then by the number of deliveries.
 * Blends of fossil fuel (diesel, petrol) only `mitMischungen`: the first closed one shows a biofuel, whose lines
 * speak in whole litres of bio; the second (at another location) and the open one take what the quarter offers.
 */
async function kandidaten(trx: Knex.Transaction, mandant: string, z: { von: string; bis: string }, heute: string, mitMischungen = false): Promise<Kandidat[]> {
  const { rows } = await trx.raw(
    `with d as (
       select a.standort_nr, a.produkt_nr, p.produktgruppe, count(*)::int as n, sum(a.menge * coalesce(a.biogehalt, 100) / 100) as bio
         from ablieferungen a join produkte p on p.mandant = a.mandant and p.nr = a.produkt_nr
        where a.mandant = ? and not a.storniert and a.datum between ? and ? and (? or p.produktgruppe not in ('benzin', 'diesel'))
        group by 1, 2, 3)
     select d.standort_nr, d.produkt_nr, d.n, d.bio,
            (select coalesce(sum(n.menge_verbleibend), 0) from nachweise n where n.mandant = ? and n.standort_nr = d.standort_nr and n.mit_rest
                and not n.storniert and n.nachhaltig and n.produktgruppe = ${zertifikatGruppeSql('d.produktgruppe')}
                and coalesce(n.lieferung_von, n.ausstellungsdatum) <= ? and coalesce(n.zeitraum_bis, n.ausstellungsdatum) >= ?) as rest
       from d`,
    [mandant, z.von, z.bis, mitMischungen, mandant, z.bis, gueltigSeit(heute)],
  );
  const knapp = (r: { bio: string; rest: string }) => Number(Number(r.rest) < Number(r.bio));
  // What can be covered: the more, the more lines.
  const gedeckt = (r: { bio: string; rest: string }) => Math.min(Number(r.rest), Number(r.bio));
  return (rows as { standort_nr: string; produkt_nr: string; n: number; bio: string; rest: string }[])
    .filter((r) => Number(r.rest) > 0 && Number(r.bio) > 0)
    .sort((a, b) => knapp(b) - knapp(a) || gedeckt(b) - gedeckt(a) || b.n - a.n || (a.standort_nr + a.produkt_nr < b.standort_nr + b.produkt_nr ? -1 : 1));
}

/**
 * Positions for the partners who delivered in the period but have no rule at the location (as a user adds them
 * by hand): after the rules' priorities, covering the product's bio content of what they took.
 */
async function positionenFuerLieferpartner(trx: Knex.Transaction, scope: TenantScope, actor: { user: { id: number }; mandant: string }, id: number, wahl: Kandidat, z: { von: string; bis: string }) {
  const mandant = scope.mandant;
  const vorhanden = new Set((await trx('bilanz_positionen').where({ mandant, bilanz_id: id }).pluck('partner_nr')).map(String));
  const max = Number((await trx('bilanz_positionen').where({ mandant, bilanz_id: id }).max('prioritaet as m').first())?.m ?? 0);
  const produkt = await trx('produkte').where({ mandant, nr: wahl.produkt_nr }).first('biogehalt');
  const partner = await trx('ablieferungen').where({ mandant, standort_nr: wahl.standort_nr, produkt_nr: wahl.produkt_nr, storniert: false })
    .whereBetween('datum', [z.von, z.bis]).distinct('partner_nr').orderBy('partner_nr').pluck('partner_nr');
  for (const nr of partner.map(String).filter((p) => !vorhanden.has(p))) {
    await positionAnlegen(scope, actor, id, { partnerNr: nr, prioritaet: String(max + 1), biogehalt: String(Number(produkt?.biogehalt ?? 100) || 100), bioMenge: null, version: undefined });
  }
}
