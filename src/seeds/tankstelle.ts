// Demo data of the Tankstelle (filling-station view): filling stations whose tanks show the traffic light's
// states, on top of the other demo data and apart from it (stations that the generated movement data leaves
// empty), so each tank's story is told by its own deliveries:
// - DEMO, 1007 Tankstelle Berlin-Spandau (a station for fleets: B100, HVO, E85, blends): seven tanks, one in
//   each of the seven states;
// - NORD, 2008 Tankstelle Aurich: three tanks.
// Per tank: inbound deliveries (Einlieferungen) with their collection (Abholung) and the certificates it carried,
// outbound deliveries (Ablieferungen) of the last weeks, some covered by certificates assigned to them (which
// lowers the certificate's rest, as an assignment does), and the stock (Bestand) of a week ago and yesterday.
//
// Every figure is the real code's: certificates through `completeNachweis` with the law values of their issue
// date, proofs with `merkmaleAus`, bio quantities with `bioMenge`; a certificate's rest is its quantity less what
// was assigned from it. Records are written with their versions (quelle 'demo'), no audit entries. Dates count
// back from the day of seeding; the states keep a margin of days, so seeding on one day and looking the next
// shows the same. Idempotent: a station that already has stock or deliveries is left as it is.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { reserveNumbers } from '../db/numbers.js';
import { setTenant } from '../db/rls.js';
import { changesOf, DEMO_DATA, normal, type VersionedStore } from '../db/versioned.js';
import type { Produktgruppe } from '../domain/fuels.js';
import { ausMilli, bioMenge, milli, zertifikatGruppe } from '../domain/lieferkette.js';
import { gesetzeswerteAm } from '../features/gesetzeswerte/service.js';
import { abholungStore } from '../features/abholungen/store.js';
import { ablieferungConfig } from '../features/lieferungen/ablieferungen.js';
import { einlieferungConfig } from '../features/lieferungen/einlieferungen.js';
import { bestandStore } from '../features/bestaende/config.js';
import { completeNachweis, nachweisStore, type Nachweis } from '../features/nachweise/nachweis.js';
import { merkmaleAus, nbStore } from '../features/nachweisbescheinigungen/config.js';
import { posPdf } from './nachweise.js';

type Row = Record<string, unknown>;
const DAY = 86_400_000;

/** A certificate that came with an inbound delivery's collection. */
interface ZertifikatPlan {
  menge: number;
  vorlaeufig?: boolean;
  /** Litres of it assigned to outbound deliveries of the tank, oldest delivery first (lowers its rest). */
  zugeordnet?: number;
}

interface EinPlan {
  /** Days before today. */
  tage: number;
  menge: number;
  status?: 'open' | 'inProgress' | 'completed';
  zertifikat?: ZertifikatPlan;
}

interface TankPlan {
  produktNr: string;
  /** The tank's capacity in litres (for the fill level). */
  kapazitaet: number;
  ein: EinPlan[];
  /** Outbound deliveries: days before today and litres. */
  ab: [tage: number, menge: number][];
  /** Stock a week ago and yesterday, litres. */
  bestand: [vorWoche: number, gestern: number];
  kommentar: string;
}

// The seven states (certificates-and-balances.md section 5, default thresholds 14/14 days). Use U is the bio
// output of the last 14 days / 14; reach D = the active delivery's certificate rest / U. Fuels with much bio in them
// (a station for fleets), so that each certificate is a batch of at least 5,000 L as the other demo certificates.
const ZUSTAENDE: Record<string, TankPlan> = {
  // 14,000 L of certificate rest (20,000 less 6,000 assigned) at 6,000 L bio in 14 days: 32 days.
  ausreichend: {
    produktNr: 'P017', kapazitaet: 30_000, kommentar: 'Demo Tankstelle: ausreichend gedeckt.',
    ein: [{ tage: 21, menge: 20_000, zertifikat: { menge: 20_000, zugeordnet: 6_000 } }],
    ab: [[12, 1_000], [10, 1_000], [8, 1_000], [6, 1_000], [4, 1_000], [2, 1_000]],
    bestand: [18_000, 14_500],
  },
  // 10,000 L rest at 6,000 L bio in 14 days: 23 days; the delivery of yesterday is still open (a successor).
  ausreichend_mit_nachfolger: {
    produktNr: 'P013', kapazitaet: 30_000, kommentar: 'Demo Tankstelle: ausreichend, Nachfolger unterwegs.',
    ein: [{ tage: 18, menge: 10_000, zertifikat: { menge: 10_000 } }, { tage: 1, menge: 8_000, status: 'open' }],
    ab: [[11, 1_500], [8, 1_500], [5, 1_500], [3, 1_500]],
    bestand: [7_000, 12_000],
  },
  // The active (older) delivery's certificate has 500 L left at 6,800 L of bio in 14 days: 1 day; a later delivery
  // with a certificate of 6,800 L takes over.
  niedrig_mit_nachfolger: {
    produktNr: 'P021', kapazitaet: 30_000, kommentar: 'Demo Tankstelle: niedrig, Nachfolger vorhanden.',
    ein: [{ tage: 26, menge: 10_000, zertifikat: { menge: 8_500, zugeordnet: 8_000 } }, { tage: 4, menge: 8_000, zertifikat: { menge: 6_800 } }],
    ab: [[24, 2_000], [20, 2_000], [16, 2_000], [12, 2_000], [9, 2_000], [6, 2_000], [3, 2_000]],
    bestand: [6_000, 10_000],
  },
  // 400 L left at 2,700 L of bio in 14 days: 2 days, and nothing follows.
  niedrig_ohne_nachfolger: {
    produktNr: 'P016', kapazitaet: 30_000, kommentar: 'Demo Tankstelle: niedrig, kein Nachfolger.',
    ein: [{ tage: 30, menge: 20_000, zertifikat: { menge: 6_000, zugeordnet: 5_600 } }],
    ab: [[28, 3_000], [24, 3_000], [20, 3_000], [16, 3_000], [12, 3_000], [8, 3_000], [4, 3_000]],
    bestand: [2_000, 1_500],
  },
  // The certificate of the only delivery is used up by the outbound deliveries it was assigned to.
  keine_aktive_lieferung: {
    produktNr: 'P020', kapazitaet: 20_000, kommentar: 'Demo Tankstelle: Nachweise aufgebraucht.',
    ein: [{ tage: 40, menge: 12_000, zertifikat: { menge: 6_000, zugeordnet: 6_000 } }],
    ab: [[35, 3_000], [25, 3_000], [15, 3_000], [6, 3_000]],
    bestand: [3_500, 2_500],
  },
  // Stock, but no inbound delivery was ever recorded (the tank held it before): no deliveries.
  keine_lieferungen: {
    produktNr: 'P024', kapazitaet: 20_000, kommentar: 'Demo Tankstelle: keine Einlieferung erfasst.',
    ein: [],
    ab: [[5, 300]],
    bestand: [1_500, 1_200],
  },
  // The delivery's certificate is provisional: the reach is not judged yet.
  vorlaeufiges_zertifikat: {
    produktNr: 'P009', kapazitaet: 80_000, kommentar: 'Demo Tankstelle: vorläufiger Nachweis.',
    ein: [{ tage: 9, menge: 50_000, zertifikat: { menge: 5_000, vorlaeufig: true } }],
    ab: [[7, 6_000], [5, 6_000], [2, 6_000]],
    bestand: [24_000, 38_000],
  },
};

/** The stations and their tanks, per tenant. */
export const TANKSTELLEN: Record<string, { standortNr: string; tanks: (keyof typeof ZUSTAENDE)[] }> = {
  DEMO: { standortNr: '1007', tanks: Object.keys(ZUSTAENDE) },
  NORD: { standortNr: '2008', tanks: ['ausreichend', 'niedrig_mit_nachfolger', 'keine_lieferungen'] },
};

/** Who supplies, who takes. */
const LIEFERANT = 'TP001';
const KUNDEN = ['TP015', 'TP011', 'TP016'];

/** The certificate's supplier and values by the certificate group (RED II Annex V, as seeds/nachweise.ts). */
const HERKUNFT: Partial<Record<Produktgruppe, Partial<Nachweis> & Record<string, unknown> & { produktNr: string; lieferant: string }>> = {
  biodiesel: {
    produktNr: 'P015', rohstoff: 'altspeiseoel', biomasseArt: 'Altspeiseöl (UCO)', biomasseCode: 'IX-B-a', abfall: true, herkunftsland: 'DE',
    anlageInbetriebnahme: '2019-02-01', eec: '0', ep: '8.9', etd: '1.6', gesamtStandardwert: '10.50', zertifizierungssystem: 'ISCC EU',
    lieferant: 'Heidekraft Biokraftstoffe GmbH', lieferantZertifikatNr: 'EU-ISCC-Cert-DE105-40023871', versandort: 'Werk Lüneburg (DE)',
  },
  bioethanol: {
    produktNr: 'P022', rohstoff: 'zuckerruebe', biomasseArt: 'Zuckerrüben', biomasseCode: null, abfall: false, herkunftsland: 'DE',
    anlageInbetriebnahme: '2008-09-01', eec: '9.6', ep: '18.8', etd: '2.3', gesamtStandardwert: '30.70', zertifizierungssystem: 'REDcert-EU',
    lieferant: 'Altmark Bioenergie GmbH', lieferantZertifikatNr: 'REDcert-EU-DE-31744', versandort: 'Werk Stendal-Arneburg (DE)',
  },
  hvo: {
    produktNr: 'P017', rohstoff: 'altspeiseoel', biomasseArt: 'Used cooking oil (UCO)', biomasseCode: 'IX-B-a', abfall: true, herkunftsland: 'NL',
    anlageInbetriebnahme: '2021-06-30', eec: '0', ep: '10.2', etd: '1.7', gesamtStandardwert: '11.90', zertifizierungssystem: 'ISCC EU',
    lieferant: 'Greasecycle Europe B.V.', lieferantZertifikatNr: 'EU-ISCC-Cert-NL220-30045512', versandort: 'Botlek Terminal, Rotterdam (NL)',
  },
};
const EMPFAENGER: Record<string, string> = { DEMO: 'Demo Energiehandel GmbH', NORD: 'Nordsee Mineralöl AG' };

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A quantity as the numeric(18,3) columns give it back. */
const scale3 = (m: bigint) => {
  const [i, f = ''] = ausMilli(m).split('.');
  return `${i}.${f.padEnd(3, '0')}`;
};

function quartal(tag: string): [string, string] {
  const [y, m] = tag.split('-').map(Number);
  const q = Math.floor((m - 1) / 3) * 3;
  return [`${y}-${String(q + 1).padStart(2, '0')}-01`, iso(Date.UTC(y, q + 3, 0))];
}

/** Version 1 of a record as the store reads its row, by the demo data. */
function erstfassung<T extends Row>(store: VersionedStore<T>, mandant: string, row: Row): Row {
  const record = store.fromRow(row);
  const changes = Object.keys(store.spec.fields).filter((f) => normal(record[f]) !== null).map((f) => ({ field: f, before: null, after: record[f] }));
  return { mandant, nr: record.nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), at: row.updated_at, benutzer_id: null, quelle: DEMO_DATA };
}

/** The row changed to `data` as its next version (returns the version row). */
async function folgefassung<T extends Row>(trx: Knex.Transaction, store: VersionedStore<T>, mandant: string, row: Row, data: Row, at: Date): Promise<Row> {
  const before = store.fromRow(row);
  const [neu] = await trx(store.spec.table).where({ mandant, nr: row.nr }).update({ ...data, version: Number(row.version) + 1, updated_at: at }).returning('*');
  const record = store.fromRow(neu);
  const changes = changesOf(before as Row, record as Row, Object.keys(store.spec.fields));
  return { mandant, nr: record.nr, version: record.version, data: JSON.stringify(record), changes: JSON.stringify(changes), at, benutzer_id: null, quelle: DEMO_DATA };
}

/** The record's fields as its table's columns. */
function spalten<T extends Row>(store: VersionedStore<T>, daten: Row): Row {
  const row: Row = {};
  for (const [field, column] of Object.entries(store.spec.fields) as [string, string][]) {
    const v = daten[field] ?? null;
    row[column] = v !== null && (field === 'hinweise' || field === 'datei') ? JSON.stringify(v) : v;
  }
  return row;
}

export async function seedTankstelle(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  for (const mandant of mandanten) {
    const station = TANKSTELLEN[mandant];
    if (!station) continue;
    await setTenant(trx, mandant);
    const S = station.standortNr;
    const standort = await trx('standorte').where({ mandant, nr: S }).first('nr', 'version', 'name', 'strasse', 'haus_nr', 'plz', 'stadt');
    if (!standort) continue;
    const belegt = await trx('bestaende').where({ mandant, standort_nr: S }).first('nr') ?? await trx('einlieferungen').where({ mandant, standort_nr: S }).first('nr');
    if (belegt) continue;
    await seedStation(trx, mandant, standort, station.tanks.map((z) => ZUSTAENDE[z]), today);
  }
}

async function seedStation(trx: Knex.Transaction, mandant: string, standort: Row, tanks: TankPlan[], today: Date): Promise<void> {
  const S = String(standort.nr);
  const now = today.getTime();
  const heute = iso(now);
  const tag = (tage: number) => iso(now - tage * DAY);
  /** A moment on a day, in working hours, never later than now. */
  const am = (datum: string, stunde = 9) => new Date(Math.min(Date.parse(`${datum}T00:00:00Z`) + stunde * 3_600_000, now - 60_000));
  const produkte = new Map((await trx('produkte').where({ mandant }).select('nr', 'name', 'version', 'produktgruppe', 'biogehalt')).map((p: Row) => [String(p.nr), p]));
  const partner = new Map((await trx('tauschpartner').where({ mandant }).whereIn('nr', [LIEFERANT, ...KUNDEN]).select('nr', 'version')).map((p: Row) => [String(p.nr), Number(p.version)]));
  const empfangsort = `${standort.name}, ${standort.strasse} ${standort.haus_nr}, ${standort.plz} ${standort.stadt}`;
  const werte = new Map<string, Awaited<ReturnType<typeof gesetzeswerteAm>>>();

  const lieferung = (p: Row, nr: string, datum: string, menge: number, status: string, partnerNr: string, typ: string) => ({
    mandant, nr, typ, biogehalt: p.biogehalt, menge: String(menge), einheit: 'L', datum, status, manuelle_eingabe: false,
    partner_nr: partnerNr, partner_version: partner.get(partnerNr) ?? 1, standort_nr: S, standort_version: standort.version,
    produkt_nr: p.nr, produkt_version: p.version, produktgruppe: p.produktgruppe, contract_number: null, incoterm: 'DAP',
    vehicle_name: typ === 'Zukauf' ? 'Tankzug B-TK 318' : null, kommentar: null, storniert: false,
    version: 1, created_at: am(datum, 8), updated_at: am(datum, 8), updated_by: null,
  });

  let ein = 0;
  let ab = 0;
  /** The next proof number from the tenant's number range. */
  const nbNummer = async () => `NB-${(await reserveNumbers(trx, mandant, 'nachweisbescheinigungen', 1)) + 1}`;
  const bestandErster = await reserveNumbers(trx, mandant, 'bestaende', tanks.length * 2);
  let bestandNr = bestandErster;

  for (const [i, plan] of tanks.entries()) {
    const p = produkte.get(plan.produktNr);
    if (!p) throw new Error(`demo data: product ${plan.produktNr} missing for ${mandant}`);
    const gruppe = p.produktgruppe as Produktgruppe;
    const herkunft = HERKUNFT[zertifikatGruppe(gruppe)];

    // ---- Outbound deliveries (oldest first: they take the certificates' quantities in that order).
    const abRows = (await trx('ablieferungen').insert(plan.ab.slice().sort((a, b) => b[0] - a[0]).map(([tage, menge], k) => {
      const datum = tag(tage);
      return lieferung(p, `AL-T${S}-${String(++ab).padStart(2, '0')}`, datum, menge, tage <= 2 ? 'open' : 'completed', KUNDEN[(i + k) % KUNDEN.length], 'Verkauf');
    })).returning('*')) as Row[];
    await trx('ablieferungen_versionen').insert(abRows.map((r) => erstfassung(ablieferungConfig.store, mandant, r)));

    // ---- Inbound deliveries, each with its collection and certificate.
    for (const e of plan.ein) {
      const datum = tag(e.tage);
      const [row] = (await trx('einlieferungen').insert(lieferung(p, `EL-T${S}-${String(++ein).padStart(2, '0')}`, datum, e.menge, e.status ?? 'completed', LIEFERANT, 'Zukauf')).returning('*')) as Row[];
      await trx('einlieferungen_versionen').insert(erstfassung(einlieferungConfig.store, mandant, row));
      if (!e.zertifikat || !herkunft) continue;

      // The certificate, issued the day before the delivery, as the form would complete it.
      const z = e.zertifikat;
      const lieferungBis = tag(e.tage + 1);
      const ausstellung = lieferungBis;
      const [zeitraumVon, zeitraumBis] = quartal(lieferungBis);
      const certNr = `NW-T${S}-${String(ein).padStart(2, '0')}`;
      const zertProdukt = produkte.get(herkunft.produktNr)!;
      if (!werte.has(ausstellung)) werte.set(ausstellung, await gesetzeswerteAm(trx, ausstellung));
      const eingabe = {
        ausstellungsdatum: ausstellung, zeitraumVon, zeitraumBis, schema: 'massenbilanz', referenzPosNr: null, vorlaeufig: Boolean(z.vorlaeufig),
        redIIKonform: true, zusatzinfo: z.vorlaeufig ? 'Vorläufiger Nachweis: endgültiger PoS des Lieferanten angefordert.' : null, datei: null,
        standortNr: S, produktgruppe: zertProdukt.produktgruppe, menge: String(z.menge), einheit: 'L', gesamtLiefermenge: null, dichte: null, lcv: null,
        biogehalt: '100', lieferungVon: lieferungBis, lieferungBis, nachhaltig: true, el: '0', eu: '0', esca: '0', eccs: '0', eccr: '0',
        waermeAllokiert: null, stromAllokiert: null, empfaenger: EMPFAENGER[mandant] ?? null, vertragsNr: `EK-${ausstellung.slice(0, 4)}-T${S}`, empfangsort,
        ...herkunft,
      } as unknown as Nachweis;
      const done = completeNachweis(eingabe, null, { produktgruppe: zertProdukt.produktgruppe as Produktgruppe, werte: werte.get(ausstellung)!, heute });
      if (done.errors.length) throw new Error(`demo data: certificate ${certNr} of ${mandant} would be refused: ${JSON.stringify(done.errors)}`);
      // Its PoS document in the tenant's files, as every demo certificate has.
      const inhalt = await posPdf(certNr, done.nachweis, String(zertProdukt.name), mandant);
      const sha256 = createHash('sha256').update(inhalt).digest('hex');
      const [{ id: dateiId }] = await trx('dateien')
        .insert({ mandant, name: `${certNr}.pdf`, typ: 'application/pdf', groesse: inhalt.length, sha256, inhalt, created_by: null, created_at: am(ausstellung, 10) })
        .returning('id');
      const datei = { id: String(dateiId), name: `${certNr}.pdf`, type: 'application/pdf', size: inhalt.length, sha256 };
      const [zRow] = (await trx('nachweise').insert({
        mandant, nr: certNr, ...spalten(nachweisStore, { ...done.nachweis, datei, referenzNachweisNr: null, storniert: false }),
        version: 1, created_at: am(ausstellung, 10), updated_at: am(ausstellung, 10), updated_by: null,
      }).returning('*')) as Row[];
      await trx('nachweise_versionen').insert(erstfassung(nachweisStore, mandant, zRow));

      // The collection at the supplier that arrived as this delivery, carrying the certificate.
      const abholungNr = `AH-T${S}-${String(ein).padStart(2, '0')}`;
      const [aRow] = (await trx('abholungen').insert({
        mandant, nr: abholungNr, bilanzierung_nr: null, lieferdatum: lieferungBis, lieferstelle_nr: S, lieferant: herkunft.lieferant, ablieferung_nr: null,
        produkt_nr: p.nr, produktgruppe: gruppe, abgang_produkt: p.name, produkttyp: Number(p.biogehalt) < 100 ? 'Mischkraftstoff' : 'Biokraftstoff',
        kraftstoffmenge: String(e.menge), menge: String(e.menge), volumen: String(e.menge), einheit: 'L', anteil: '100', biogehalt: p.biogehalt,
        nachweise: JSON.stringify([certNr]), kommentar: plan.kommentar, storniert: false,
        version: 1, created_at: am(lieferungBis, 11), updated_at: am(lieferungBis, 11), updated_by: null,
      }).returning('*')) as Row[];
      await trx('abholungen_versionen').insert(erstfassung(abholungStore, mandant, aRow));
      await trx('abholung_nachweise').insert({ mandant, abholung_nr: abholungNr, nachweis_nr: certNr });
      await trx('einlieferungen_versionen').insert(await folgefassung(trx, einlieferungConfig.store, mandant, row, { abholung_nr: abholungNr }, am(datum, 12)));

      // Assigned to the tank's outbound deliveries, oldest first, each its bio quantity until `zugeordnet` is used.
      let offen = milli(z.zugeordnet ?? 0);
      if (offen <= 0n) continue;
      let zertifikat = zRow;
      const nachweis = nachweisStore.fromRow(zRow);
      for (const a of abRows) {
        if (offen <= 0n || String(a.datum) < datum) continue;
        const bio = milli(bioMenge({ menge: String(a.menge), einheit: 'L', biogehalt: String(a.biogehalt), gruppe }, 'L'));
        const volumen = bio < offen ? bio : offen;
        offen -= volumen;
        const at = am(String(a.datum), 14);
        const nb = {
          ...merkmaleAus(nachweis, ausMilli(volumen), zertProdukt.name as string),
          nachweisNr: certNr, volumen: ausMilli(volumen), volumenVerbleibend: '0', lieferdatum: a.datum, kommentar: null,
          referenzNachweisNr: null, ablieferungNr: a.nr, storniert: false,
        };
        const [nbRow] = (await trx('nachweisbescheinigungen').insert({
          mandant, nr: await nbNummer(), ...spalten(nbStore, nb), version: 1, created_at: at, updated_at: at, updated_by: null,
        }).returning('*')) as Row[];
        await trx('nachweisbescheinigungen_versionen').insert(erstfassung(nbStore, mandant, nbRow));
        const rest = milli(String(zertifikat.menge_verbleibend)) - volumen;
        const version = await folgefassung(trx, nachweisStore, mandant, zertifikat, { menge_verbleibend: scale3(rest) }, at);
        await trx('nachweise_versionen').insert(version);
        zertifikat = await trx('nachweise').where({ mandant, nr: certNr }).first();
      }
      if (offen > 0n) throw new Error(`demo data: ${certNr} could not be assigned in full (${ausMilli(offen)} L left)`);
    }

    // ---- Stock a week ago and yesterday.
    const bRows = (await trx('bestaende').insert(plan.bestand.map((volumen, k) => {
      const datum = tag(k === 0 ? 8 : 1);
      return {
        mandant, nr: String(++bestandNr), datum, standort_nr: S, produkt_nr: p.nr, volumen: String(volumen),
        fuellstand: ((volumen / plan.kapazitaet) * 100).toFixed(2), version: 1, created_at: am(datum, 20), updated_at: am(datum, 20), updated_by: null,
      };
    })).returning('*')) as Row[];
    await trx('bestaende_versionen').insert(bRows.map((r) => erstfassung(bestandStore, mandant, r)));
  }
}
