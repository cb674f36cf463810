// Demo chain of custody for DEMO and NORD, on top of the demo deliveries and certificates: collections
// (Abholungen) at suppliers' sites carrying the certificates that came with them, the inbound deliveries they
// arrived as, and certificates assigned to outbound deliveries, so that every status of issue 15 can be seen:
// - Einlieferungen not linked, linked with a provisional certificate, linked with final ones;
// - Ablieferungen without certificates (the tracing's "Keine Nachweise verfügbar"), covered by final
//   certificates, covered only in part, covered with a provisional one;
// - certificates in every tracking state: active, used up by assignments, expired with rest (a collection of
//   old stock), pending (provisional, or its delivery not yet completed).
//
// The rules are the real code's: a delivery's bio quantity from `bioMenge`, a proof's characteristics from
// `merkmaleAus`, an assignment never more than the certificate's rest or the delivery's open bio quantity,
// only sustainable certificates of the same location and group that have not expired (`nachweisAblaufAus`).
// Each change is a version of its record (quelle 'demo'): the Einlieferung's link, the certificate's rest.
// Deterministic: the same demo data and day give the same chain.
import type { Knex } from 'knex';
import { reserveNumbers } from '../db/numbers.js';
import { setTenant } from '../db/rls.js';
import { DEMO_DATA, normal, type Meta, type VersionedStore } from '../db/versioned.js';
import type { Produktgruppe } from '../domain/fuels.js';
import { nachweisAblaufAus } from '../domain/gesetzeswerte.js';
import { ausMilli, milli, zertifikatGruppe } from '../domain/lieferkette.js';
import { hoechstens, type Belegung } from '../domain/zuordnung.js';
import type { Einheit } from '../domain/units.js';
import * as gesetzeswerte from '../features/gesetzeswerte/repo.js';
import { abholungStore } from '../features/abholungen/store.js';
import { lieferungStore } from '../features/lieferungen/lieferung.js';
import { LIEFERUNG_NAMES } from '../features/lieferungen/names.js';
import { nachweisStore, type Nachweis } from '../features/nachweise/nachweis.js';
import { merkmaleAus, nbStore } from '../features/nachweisbescheinigungen/config.js';
import { insertChunked } from './bewegungsdaten.js';

type Row = Record<string, unknown>;
/** At most this many collections and assignments per tenant: two pages of each list, and many deliveries left without. */
const MAX_ABHOLUNGEN = 16;
const MAX_ZUORDNUNGEN = 24;

const einlieferungStore = lieferungStore({ resource: 'einlieferungen', area: 'einlieferungen', names: LIEFERUNG_NAMES.einlieferungen });
const ms = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`);
const isoDay = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
/** A quantity as the numeric(18,3) columns give it back. */
const scale3 = (m: bigint) => {
  const [i, f = ''] = ausMilli(m).split('.');
  return `${i}.${f.padEnd(3, '0')}`;
};

export async function seedLieferkette(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  const heute = today.toISOString().slice(0, 10);
  const ablaufZeilen = await gesetzeswerte.zeilen(trx, ['nachweis_ablauf']);
  for (const mandant of mandanten) {
    await setTenant(trx, mandant);
    if (await trx('abholungen').where({ mandant }).first('nr')) continue;
    await seedTenant(trx, mandant, heute, today, (zeitraumBis) => nachweisAblaufAus(ablaufZeilen, zeitraumBis));
  }
}

interface Delivery {
  row: Row;
  nr: string;
  datum: string;
  key: string;
}

async function seedTenant(trx: Knex.Transaction, mandant: string, heute: string, today: Date, ablauf: (zeitraumBis: string) => string) {
  const now = today.getTime();
  /** When a change after a delivery was made: the day after it, 10:00, after the record's last change, never later than now. */
  const danach = (datum: string, after: unknown, minuten = 0) =>
    new Date(Math.min(Math.max(ms(datum) + 34 * 3_600_000 + minuten * 60_000, new Date(after as string).getTime() + 60_000), now - 60_000));

  const zertifikate = (await trx('nachweise').where({ mandant, storniert: false, nachhaltig: true }).where('menge_verbleibend', '>', 0)
    .orderByRaw('lieferung_von nulls last').orderBy('nr')).map((r: Row) => nachweisStore.fromRow(r));
  const rest = new Map(zertifikate.map((n) => [n.nr, milli(String(n.mengeVerbleibend))]));
  const version = new Map(zertifikate.map((n) => [n.nr, n.version]));
  const zuletzt = new Map(zertifikate.map((n) => [n.nr, new Date(n.updatedAt).getTime()]));
  const key = (standort: unknown, gruppe: unknown) => `${standort}|${gruppe}`;
  const zertifikateNach = new Map<string, (Nachweis & Meta)[]>();
  for (const n of zertifikate) zertifikateNach.set(key(n.standortNr, n.produktgruppe), [...(zertifikateNach.get(key(n.standortNr, n.produktgruppe)) ?? []), n]);
  const produktNamen = new Map((await trx('produkte').where({ mandant }).select('nr', 'name')).map((p: Row) => [String(p.nr), String(p.name)]));

  const lieferungen = async (table: string): Promise<Delivery[]> =>
    // Only what carries a bio component can be backed by certificates (a B7 by biodiesel ones).
    (await trx(table).where({ mandant, storniert: false }).where((q) => q.whereNull('biogehalt').orWhere('biogehalt', '>', 0)).orderBy('datum').orderBy('nr'))
      .map((row: Row) => ({ row, nr: String(row.nr), datum: isoDay(row.datum), key: key(row.standort_nr, row.produktgruppe) }));
  /** The certificates that may back deliveries of a key (location and group): those of its bio component's group. */
  const zertifikateFuer = (k: string) => {
    const [standort, gruppe] = k.split('|');
    return zertifikateNach.get(key(standort, zertifikatGruppe(gruppe as Produktgruppe))) ?? [];
  };
  const ein = await lieferungen('einlieferungen');
  const ab = await lieferungen('ablieferungen');

  // ---- Collections: per location and group with certificates, a few collections of 1–3 inbound deliveries each,
  // carrying one or two certificates. The newest certificates are provisional (seeds/nachweise.ts); the first
  // collection of a group that has one carries it. One collection per tenant is old stock: an expired certificate.
  const abholungen: Row[] = [];
  const links: { ein: Delivery; abholungNr: string }[] = [];
  const abholungNachweise: Row[] = [];
  const einNach = new Map<string, Delivery[]>();
  for (const d of ein) einNach.set(d.key, [...(einNach.get(d.key) ?? []), d]);
  let seq = 0;
  let alterBestand = false;
  // Groups whose certificates include a provisional one first, so that each tenant shows that status.
  const mitVorlaeufigem = (k: string) => (zertifikateFuer(k).some((n) => n.vorlaeufig) ? 0 : 1);
  for (const [k, deliveries] of [...einNach.entries()].sort(([a], [b]) => mitVorlaeufigem(a) - mitVorlaeufigem(b) || a.localeCompare(b))) {
    const certs = zertifikateFuer(k);
    if (!certs.length) continue;
    const offen = certs.filter((n) => n.vorlaeufig);
    const abgelaufen = certs.filter((n) => n.zeitraumBis && ablauf(isoDay(n.zeitraumBis)) < heute);
    let pos = 0;
    for (let i = 0; i < 3 && pos < deliveries.length && abholungen.length < MAX_ABHOLUNGEN; i++) {
      const batch = deliveries.slice(pos, pos + 1 + ((seq + i) % 3));
      pos += batch.length + 1; // every other delivery stays unlinked
      const gewaehlt: (Nachweis & Meta)[] = [];
      if (i === 0 && offen.length) gewaehlt.push(offen[0]);
      else if (!alterBestand && abgelaufen.length) {
        gewaehlt.push(abgelaufen[0]);
        alterBestand = true;
      }
      const final = certs.filter((n) => !n.vorlaeufig && !gewaehlt.includes(n));
      while (gewaehlt.length < 1 + ((seq + i) % 2) && final.length) gewaehlt.push(final.splice((seq + i) % final.length, 1)[0]);
      if (!gewaehlt.length) continue;
      const nr = `AH-${String(10_001 + seq++)}`;
      const erste = gewaehlt[0];
      const produkt = String(batch[0].row.produkt_nr);
      const summe = batch.reduce((s, d) => s + milli(String(d.row.menge)), 0n);
      const einheit = String(batch[0].row.einheit);
      const lieferdatum = new Date(ms(batch[0].datum) - 86_400_000).toISOString().slice(0, 10);
      abholungen.push({
        mandant, nr, bilanzierung_nr: `BIL-${lieferdatum.slice(0, 7)}-${String(seq).padStart(3, '0')}`, lieferdatum,
        lieferstelle_nr: batch[0].row.standort_nr, lieferant: erste.lieferant ?? null, ablieferung_nr: null, produkt_nr: produkt,
        produktgruppe: batch[0].row.produktgruppe, abgang_produkt: produktNamen.get(produkt) ?? null,
        produkttyp: Number(batch[0].row.biogehalt ?? 100) < 100 ? 'Mischkraftstoff' : 'Biokraftstoff',
        kraftstoffmenge: scale3(summe), menge: scale3(summe), volumen: scale3(summe), einheit,
        anteil: '100', biogehalt: batch[0].row.biogehalt ?? '100', nachweise: JSON.stringify(gewaehlt.map((n) => n.nr)), kommentar: null, storniert: false,
        version: 1, created_at: danach(lieferdatum, 0, -1440), updated_at: danach(lieferdatum, 0, -1440), updated_by: null,
      });
      for (const n of gewaehlt) abholungNachweise.push({ mandant, abholung_nr: nr, nachweis_nr: n.nr });
      for (const d of batch) links.push({ ein: d, abholungNr: nr });
    }
  }
  // A tenant whose provisional certificates came with no inbound delivery still shows a provisional link: the
  // newest collection's certificate was received provisional (its versions say so from the first).
  const zertifikatNach = new Map(zertifikate.map((n) => [n.nr, n]));
  if (!abholungNachweise.some((an) => zertifikatNach.get(String(an.nachweis_nr))?.vorlaeufig)) {
    const neueste = [...abholungen].sort((a, b) => String(b.lieferdatum).localeCompare(String(a.lieferdatum)))[0];
    const n = neueste && zertifikatNach.get(JSON.parse(String(neueste.nachweise))[0]);
    if (n) {
      const zusatzinfo = 'Vorläufiger Nachweis: endgültiger PoS des Lieferanten angefordert.';
      n.vorlaeufig = true;
      await trx('nachweise').where({ mandant, nr: n.nr }).update({ vorlaeufig: true, zusatzinfo });
      await trx('nachweise_versionen').where({ mandant, nr: n.nr }).update({
        data: trx.raw(`jsonb_set(jsonb_set(data, '{vorlaeufig}', 'true'), '{zusatzinfo}', to_jsonb(?::text))`, [zusatzinfo]),
      });
      // Version 1 entered them: its changes say so.
      await trx('nachweise_versionen').where({ mandant, nr: n.nr, version: 1 }).update({
        changes: trx.raw(`(select jsonb_agg(case when c->>'field' = 'vorlaeufig' then jsonb_set(c, '{after}', 'true') else c end) from jsonb_array_elements(changes) c)
          || jsonb_build_array(jsonb_build_object('field', 'zusatzinfo', 'before', null, 'after', ?::text))`, [zusatzinfo]),
      });
    }
  }
  const gespeichert = (await trx('abholungen').insert(abholungen).returning('*')).map((r: Row) => abholungStore.fromRow(r));
  await insertChunked(trx, 'abholungen_versionen', gespeichert.map((a) => erstfassung(abholungStore, mandant, a)));
  await insertChunked(trx, 'abholung_nachweise', abholungNachweise);

  // Each linked Einlieferung gets a version that records its collection.
  const einVersionen: Row[] = [];
  for (const { ein: d, abholungNr } of links) {
    const at = danach(d.datum, d.row.updated_at);
    const [row] = await trx('einlieferungen').where({ mandant, nr: d.nr }).update({ abholung_nr: abholungNr, version: Number(d.row.version) + 1, updated_at: at }).returning('*');
    einVersionen.push(folgefassung(einlieferungStore, mandant, row, [{ field: 'abholungNr', before: null, after: abholungNr }], at));
  }
  await insertChunked(trx, 'einlieferungen_versionen', einVersionen);

  // ---- Assignments: outbound deliveries in time order at a location and group with usable certificates, in a
  // pattern of four: covered by final certificates, covered to 60 %, covered with a provisional one, none.
  const nutzbar = (n: Nachweis & Meta) => !n.zeitraumBis || ablauf(isoDay(n.zeitraumBis)) >= heute;
  const nbs: Row[] = [];
  const zertifikatVersionen: Row[] = [];
  let muster = 0;
  const erste = await reserveNumbers(trx, mandant, 'nachweisbescheinigungen', MAX_ZUORDNUNGEN * 2);
  let nbNummer = erste;
  for (const d of ab) {
    if (nbs.length >= MAX_ZUORDNUNGEN) break;
    const certs = zertifikateFuer(d.key).filter(nutzbar);
    if (!certs.length) continue;
    const art = muster++ % 4;
    if (art === 3) continue;
    const kandidaten = art === 2 ? [...certs.filter((n) => n.vorlaeufig), ...certs.filter((n) => !n.vorlaeufig)] : certs.filter((n) => !n.vorlaeufig);
    // The delivery as the assignment rules see it (src/domain/zuordnung.ts); a partial cover stops at 60 %.
    const voll = { menge: String(d.row.menge), einheit: d.row.einheit as Einheit, biogehalt: d.row.biogehalt == null ? null : String(d.row.biogehalt), gruppe: d.row.produktgruppe as Produktgruppe };
    const lieferung = art === 1 ? { ...voll, menge: ausMilli((milli(voll.menge) * 6n) / 10n) } : voll;
    const belegt: Belegung[] = [];
    for (const n of kandidaten) {
      const volumen = milli(hoechstens(lieferung, belegt, ausMilli(rest.get(n.nr)!), n.einheit as Einheit));
      if (volumen <= 0n) continue;
      belegt.push({ volumen: ausMilli(volumen), einheit: n.einheit as Einheit });
      const vorher = rest.get(n.nr)!;
      rest.set(n.nr, vorher - volumen);
      const at = danach(d.datum, new Date(Math.max(new Date(d.row.updated_at as string).getTime(), zuletzt.get(n.nr)!)).toISOString(), nbs.length);
      zuletzt.set(n.nr, at.getTime());
      const nr = `NB-${++nbNummer}`;
      nbs.push({
        nr, at,
        daten: {
          ...merkmaleAus(n, ausMilli(volumen), produktNamen.get(n.produktNr) ?? null),
          nachweisNr: n.nr, volumen: ausMilli(volumen), volumenVerbleibend: '0', lieferdatum: d.datum, kommentar: null,
          referenzNachweisNr: null, ablieferungNr: d.nr, storniert: false,
        },
      });
      const v = version.get(n.nr)! + 1;
      version.set(n.nr, v);
      zertifikatVersionen.push({ nr: n.nr, version: v, at, before: scale3(vorher), after: scale3(vorher - volumen) });
      if (nbs.length >= MAX_ZUORDNUNGEN * 2) break;
    }
  }

  // Proofs issued for the deliveries, version 1 each.
  if (nbs.length) {
    const rows = nbs.map(({ nr, at, daten }) => ({
      mandant, nr, version: 1, created_at: at, updated_at: at, updated_by: null,
      ...Object.fromEntries(Object.entries(nbStore.spec.fields).map(([f, c]) => [c, (daten as Row)[f] ?? null])),
    }));
    const stored = (await trx('nachweisbescheinigungen').insert(rows).returning('*')).map((r: Row) => nbStore.fromRow(r));
    await insertChunked(trx, 'nachweisbescheinigungen_versionen', stored.map((b) => erstfassung(nbStore, mandant, b)));
  }
  // The certificates' rests, one version per assignment (in time order), the row holding the last.
  for (const z of zertifikatVersionen.sort((a, b) => String(a.nr).localeCompare(String(b.nr)) || Number(a.version) - Number(b.version))) {
    const [row] = await trx('nachweise').where({ mandant, nr: z.nr }).update({ menge_verbleibend: z.after, version: z.version, updated_at: z.at }).returning('*');
    await trx('nachweise_versionen').insert(folgefassung(nachweisStore, mandant, row, [{ field: 'mengeVerbleibend', before: z.before, after: z.after }], z.at as Date));
  }
}

/** Version 1 of a record as the store writes it, by the demo data. */
function erstfassung<T extends Row>(store: VersionedStore<T>, mandant: string, record: T & Meta): Row {
  const changes = Object.keys(store.spec.fields).filter((f) => normal(record[f]) !== null).map((f) => ({ field: f, before: null, after: record[f] }));
  return { mandant, nr: record.nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), at: record.updatedAt, benutzer_id: null, quelle: DEMO_DATA };
}

/** The version a change wrote, by the demo data. */
function folgefassung<T extends Row>(store: VersionedStore<T>, mandant: string, row: Row, changes: { field: string; before: unknown; after: unknown }[], at: Date): Row {
  const record = store.fromRow(row);
  return { mandant, nr: record.nr, version: record.version, data: JSON.stringify(record), changes: JSON.stringify(changes), at, benutzer_id: null, quelle: DEMO_DATA };
}
