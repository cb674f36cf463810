// Demo movement data for a tenant: inbound and outbound deliveries over the last six months across its
// locations and products, in every status, some cancelled, and the daily stock of the last 90 days. The stock
// is simulated, so it agrees with the deliveries: each day's closing stock is the previous one plus the day's
// inbound minus its outbound litres (cancelled deliveries moved nothing), and never drops below zero or rises
// above the tank. Fixed seed: every run produces the same rows for the same "today".
//
// `generateMovements` is pure (rows in, rows out) so that the scale seeding of the benchmark can produce any
// number of deliveries the same way.
import type { Knex } from 'knex';
import { isProduktgruppe } from '../domain/fuels.js';
import { umrechnen, type Einheit } from '../domain/units.js';
import { ablieferungConfig } from '../features/lieferungen/ablieferungen.js';
import { bestandStore } from '../features/bestaende/config.js';
import { messdifferenz } from './reports.js';
import { einlieferungConfig } from '../features/lieferungen/einlieferungen.js';
import { reserveNumbers } from '../db/numbers.js';
import { setTenant } from '../db/rls.js';
import { generator } from './stammdaten.js';
import { DEMO_DATA, type VersionedStore } from '../db/versioned.js';

type Row = Record<string, unknown>;
const DAY = 86_400_000;

interface Master {
  nr: string;
  version: number;
}
interface Standort extends Master {
  name: string;
}
interface Produkt extends Master {
  produktgruppe: string;
  biogehalt: string;
}

export interface MovementInput {
  mandant: string;
  today: Date;
  /** How many days back the deliveries reach, and the stock. */
  days: number;
  stockDays: number;
  /** Deliveries in each direction (fewer only if every tank is full, or empty, on the last day). */
  perDirection: number;
  standorte: Standort[];
  produkte: Produkt[];
  partner: Master[];
  seed: number;
}

export interface MovementRows {
  einlieferungen: Row[];
  ablieferungen: Row[];
  bestaende: Row[];
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** Status by age: old deliveries are completed (a few locked), recent ones still open or in progress. */
function statusFor(age: number, r: number): string {
  if (age > 60) return r < 0.15 ? 'locked' : 'completed';
  if (age > 14) return r < 0.5 ? 'completed' : 'inProgress';
  return r < 0.6 ? 'open' : 'inProgress';
}

const VEHICLES = ['HH-TK 412', 'H-KW 2201', 'HB-TS 88', 'MS Rheinstrom', 'Kesselwagenzug 47110', 'HRO-T 903', 'L-TK 550', 'DU-MT 17'];

export function generateMovements(input: MovementInput): MovementRows {
  const g = generator(input.seed);
  const { mandant } = input;
  const out: MovementRows = { einlieferungen: [], ablieferungen: [], bestaende: [] };
  // Each location carries two or three products; tank farms and depots hold far more than filling stations.
  const pairs = input.standorte.flatMap((s) => {
    const kapazitaet = /Tankstelle/.test(s.name) ? g.int(40, 80) * 1000 : g.int(400, 900) * 1000;
    return g.sample(input.produkte, g.int(2, 3)).map((p) => ({ s, p, kapazitaet, bestand: Math.round(kapazitaet * 0.5), carryIn: 0, carryOut: 0 }));
  });
  // Exactly `perDirection` deliveries each way, spread at random over the days and pairs.
  const slots = pairs.length * (input.days + 1);
  const countsIn = new Uint16Array(slots);
  const countsOut = new Uint16Array(slots);
  for (let k = 0; k < input.perDirection; k++) {
    countsIn[g.int(0, slots - 1)]++;
    countsOut[g.int(0, slots - 1)]++;
  }
  // Deliveries per tank and day and direction, on average (below 1 for the demo data).
  const perSlot = Math.max(1, input.perDirection / slots);
  /** A delivery of `litres` at this tank (location and product) on that day. */
  const deliveryOf = (pair: (typeof pairs)[number], date: Date, age: number, nr: string, litres: number) => {
    const { s, p: produkt } = pair;
    const gruppe = isProduktgruppe(produkt.produktgruppe) ? produkt.produktgruppe : 'diesel';
    // Some partners invoice by weight: then the quantity is the same litres in kilograms.
    const einheit: Einheit = g.int(1, 10) === 1 ? 'kg' : 'L';
    const menge = einheit === 'L' ? String(litres) : umrechnen(litres, 'L', 'kg', gruppe);
    const partner = g.pick(input.partner);
    return {
      mandant, nr, typ: null as string | null, biogehalt: produkt.biogehalt, menge, einheit, datum: iso(date), status: statusFor(age, g.int(0, 99) / 100),
      manuelle_eingabe: g.int(1, 5) === 1, partner_nr: partner.nr, partner_version: partner.version, standort_nr: s.nr,
      standort_version: s.version, produkt_nr: produkt.nr, produkt_version: produkt.version, produktgruppe: gruppe,
      contract_number: g.int(1, 3) === 1 ? null : `K-${date.getUTCFullYear()}-${String(g.int(1, 80)).padStart(3, '0')}`,
      incoterm: g.pick(['DAP', 'FCA', 'EXW', 'CPT', null]), vehicle_name: g.pick(VEHICLES), kommentar: null,
      storniert: g.int(1, 25) === 1,
    };
  };
  let nrIn = 0;
  let nrOut = 0;
  const start = input.today.getTime() - input.days * DAY;
  for (let day = 0; day <= input.days; day++) {
    const date = new Date(start + day * DAY);
    const age = input.days - day;
    pairs.forEach((pair, p) => {
      const { s, p: produkt } = pair;
      const delivery = (nr: string, litres: number) => deliveryOf(pair, date, age, nr, litres);
      // Sizes pull the tank back towards half full (larger inbound when low, larger outbound when high), and
      // never to empty or full; a tank that sees many deliveries a day (data at scale) sees smaller ones.
      const size = (bias: number) => Math.round((pair.kapazitaet * (g.int(3, 20) / 100) * bias) / perSlot);
      // A delivery that does not fit today (tank full or empty) comes on the next day instead.
      const dueIn = countsIn[day * pairs.length + p] + pair.carryIn;
      const dueOut = countsOut[day * pairs.length + p] + pair.carryOut;
      pair.carryIn = 0;
      pair.carryOut = 0;
      for (let c = 0; c < dueIn; c++) {
        const fill = pair.bestand / pair.kapazitaet;
        // At most 90 % of the room, so a tank is never exactly full and the next delivery still fits.
        const litres = Math.min(Math.floor((pair.kapazitaet - pair.bestand) * 0.9), size(1.5 - fill));
        if (litres < 1) {
          pair.carryIn++;
          continue;
        }
        const row = { ...delivery(`EL-${String(++nrIn).padStart(6, '0')}`, litres), typ: g.pick(['Zukauf', 'Zukauf', 'Umlagerung']) };
        if (!row.storniert) pair.bestand += litres;
        out.einlieferungen.push(row);
      }
      for (let c = 0; c < dueOut; c++) {
        const fill = pair.bestand / pair.kapazitaet;
        const litres = Math.min(Math.floor(pair.bestand * 0.9), size(0.5 + fill));
        if (litres < 1) {
          pair.carryOut++;
          continue;
        }
        const row = { ...delivery(`AL-${String(++nrOut).padStart(6, '0')}`, litres), typ: g.pick(['Verkauf', 'Verkauf', 'Umlagerung']) };
        if (!row.storniert) pair.bestand -= litres;
        out.ablieferungen.push(row);
      }
      if (age < input.stockDays) {
        out.bestaende.push({
          mandant, datum: iso(date), standort_nr: s.nr, produkt_nr: produkt.nr, volumen: String(pair.bestand),
          fuellstand: ((pair.bestand / pair.kapazitaet) * 100).toFixed(2),
        });
      }
    });
  }
  // Deliveries still due after the last day (their tank stayed full or empty to the end): on the last day, at
  // the tank with the most room (inbound) or the most stock (outbound), so each way has exactly perDirection.
  // The last day's stock figures follow.
  const lastDate = new Date(start + input.days * DAY);
  const most = (key: (pair: (typeof pairs)[number]) => number) => pairs.reduce((a, b) => (key(b) > key(a) ? b : a));
  for (let left = pairs.reduce((n, pair) => n + pair.carryIn, 0); left > 0; left--) {
    const pair = most((x) => x.kapazitaet - x.bestand);
    const litres = Math.floor((pair.kapazitaet - pair.bestand) / 2);
    if (litres < 1) break;
    const row = { ...deliveryOf(pair, lastDate, 0, `EL-${String(++nrIn).padStart(6, '0')}`, litres), typ: 'Zukauf' };
    if (!row.storniert) pair.bestand += litres;
    out.einlieferungen.push(row);
  }
  for (let left = pairs.reduce((n, pair) => n + pair.carryOut, 0); left > 0; left--) {
    const pair = most((x) => x.bestand);
    const litres = Math.floor(pair.bestand / 2);
    if (litres < 1) break;
    const row = { ...deliveryOf(pair, lastDate, 0, `AL-${String(++nrOut).padStart(6, '0')}`, litres), typ: 'Verkauf' };
    if (!row.storniert) pair.bestand -= litres;
    out.ablieferungen.push(row);
  }
  if (input.stockDays > 0) {
    const lastDay = out.bestaende.slice(-pairs.length);
    pairs.forEach((pair, i) => Object.assign(lastDay[i], { volumen: String(pair.bestand), fuellstand: ((pair.bestand / pair.kapazitaet) * 100).toFixed(2) }));
  }
  return out;
}

/** Version 1 of freshly inserted records, built from the rows themselves (no second read). */
function firstVersionsOf<T extends Record<string, unknown>>(store: VersionedStore<T>, rows: Row[], at: Date) {
  return rows.map((row) => {
    const record = store.fromRow({ ...row, version: 1, updated_at: at.toISOString() }) as Row;
    const changes = Object.keys(store.spec.fields).filter((f) => record[f] != null && record[f] !== '').map((f) => ({ field: f, before: null, after: record[f] }));
    return { mandant: row.mandant, nr: row.nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), benutzer_id: null, quelle: DEMO_DATA, at };
  });
}

/** Inserts in chunks (one statement per chunk; PostgreSQL limits the parameters of one statement). */
export async function insertChunked(trx: Knex | Knex.Transaction, table: string, rows: Row[], size = 500) {
  for (let i = 0; i < rows.length; i += size) await trx(table).insert(rows.slice(i, i + size));
}

/** The master data a tenant's movement data refers to: active records at their current version. */
export async function masterOf(trx: Knex | Knex.Transaction, mandant: string) {
  const active = (table: string, columns: string[]) => trx(table).where({ mandant, status: 'aktiv' }).orderBy('nr').select(['nr', 'version', ...columns]);
  return {
    standorte: (await active('standorte', ['name'])) as Standort[],
    produkte: (await active('produkte', ['produktgruppe', 'biogehalt'])) as Produkt[],
    partner: (await active('tauschpartner', [])) as Master[],
  };
}

/** Writes generated movement data with version 1 of every record and moves the stock numbering on. */
export async function writeMovements(trx: Knex | Knex.Transaction, rows: MovementRows, at: Date) {
  await insertChunked(trx, 'einlieferungen', rows.einlieferungen);
  await insertChunked(trx, 'einlieferungen_versionen', firstVersionsOf(einlieferungConfig.store, rows.einlieferungen, at));
  await insertChunked(trx, 'ablieferungen', rows.ablieferungen);
  await insertChunked(trx, 'ablieferungen_versionen', firstVersionsOf(ablieferungConfig.store, rows.ablieferungen, at));
  if (rows.bestaende.length) {
    // Numbers from the tenant's number range: reserve a block, then number the rows within it.
    const last = await reserveNumbers(trx, String(rows.bestaende[0].mandant), 'bestaende', rows.bestaende.length);
    const numbered = rows.bestaende.map((b, i) => ({ ...b, nr: String(last + i + 1) }));
    await insertChunked(trx, 'bestaende', numbered);
    await insertChunked(trx, 'bestaende_versionen', firstVersionsOf(bestandStore, numbered, at));
  }
}

/** Demo movement data for each tenant that has none yet. */
export async function seedBewegungsdaten(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  for (const [i, mandant] of mandanten.entries()) {
    // The tables are under row-level security, which binds the owner who seeds too.
    await setTenant(trx, mandant);
    if (await trx('einlieferungen').where({ mandant }).first('nr')) continue;
    const master = await masterOf(trx, mandant);
    if (!master.standorte.length || !master.produkte.length || !master.partner.length) continue;
    const rows = generateMovements({
      mandant, today, days: 182, stockDays: 90, perDirection: 320, seed: 20261123 + i,
      // Six locations with two or three products each: enough to fill every list, small enough to seed fast.
      standorte: master.standorte.slice(0, 6), produkte: master.produkte, partner: master.partner,
    });
    // The stock measured at one tank falls short of the books: the Mengenbilanz report shows it (seeds/reports.ts).
    messdifferenz(rows);
    await writeMovements(trx, rows, today);
  }
}
