// Records a test needs beyond the demo data, written as creating them through the app writes them: validated by
// the record type's schema, completed by its own checks (a delivery's partner, location and product resolved to
// their current versions, its product group taken from the product), and stored through the record service
// (src/records/service.ts: the current row, version 1 and the audit entry, in one transaction) in a TenantScope.
// Defaults make a valid record; pass only what the test is about:
//
//   const scope = new TenantScope(t.db.knex, 'DEMO');
//   const standort = await buildStandort(scope, { nr: '1099', name: 'Depot Test' });
//   const lieferung = await buildEinlieferung(scope, { standortNr: standort.nr, entladeneMenge: '500' });
import type { TenantScope } from '../db/scope.js';
import type { Meta } from '../db/versioned.js';
import type { Lieferung } from '../features/lieferungen/lieferung.js';
import { einlieferungConfig } from '../features/lieferungen/einlieferungen.js';
import { produktConfig, type Produkt } from '../features/produkte/config.js';
import { standortConfig, type Standort } from '../features/standorte/config.js';
import { tauschpartnerConfig } from '../features/tauschpartner/config.js';
import type { Tauschpartner } from '../features/tauschpartner/store.js';
import type { EntityConfig } from '../records/entity.js';
import { recordService } from '../records/service.js';

/** Beside the record's own fields: its number (generated unless given) and who saved it (the seeded ADMIN). */
interface Common {
  nr?: string;
  by?: number;
}

/** Field values as a form or the API would send them ('7,5', 'on', …): the record type's schema checks them. */
type Input<T> = { [K in keyof T]?: unknown } & Common;

let sequence = 0;

/** The seeded system administrator, who belongs to every demo tenant: the versions name a real user. */
async function defaultAuthor(scope: TenantScope): Promise<number> {
  const admin = await scope.knex('benutzer').where({ login: 'ADMIN' }).first('id');
  if (!admin) throw new Error('factories: no user ADMIN to save as; pass `by`');
  return admin.id;
}

async function build<T extends Record<string, unknown>>(
  cfg: EntityConfig<T>, scope: TenantScope, prefix: string, defaults: (nr: string) => Record<string, unknown>, { nr, by, ...fields }: Input<T>,
): Promise<T & Meta> {
  const number = nr ?? `${prefix}-${++sequence}`;
  const input = cfg.schema.parse({ ...defaults(number), ...fields });
  const actor = { user: { id: by ?? (await defaultAuthor(scope)) }, mandant: scope.mandant };
  return recordService(cfg).create(scope, actor, { ...input, nr: number });
}

export function buildStandort(scope: TenantScope, input: Input<Standort> = {}): Promise<Standort & Meta> {
  return build(standortConfig, scope, 'FS', (nr) => ({ name: `Standort ${nr}`, plz: '20457', stadt: 'Hamburg', land: 'Deutschland' }), input);
}

/** A diesel with 7 % bio content; its calorific value is the group's reference value unless given. */
export function buildProdukt(scope: TenantScope, input: Input<Produkt> = {}): Promise<Produkt & Meta> {
  return build(produktConfig, scope, 'FP', (nr) => ({ name: `Produkt ${nr}`, produktgruppe: 'diesel', biogehalt: '7', lcvEinheit: 'MJ/L' }), input);
}

/** A partner without rules (rules are added through the partner's routes, as a new partner version). */
export function buildTauschpartner(scope: TenantScope, input: Input<Tauschpartner> = {}): Promise<Tauschpartner & Meta> {
  return build(tauschpartnerConfig, scope, 'FT', (nr) => ({ name: `Partner ${nr}`, plz: '20457', stadt: 'Hamburg', land: 'Deutschland' }), input);
}

/**
 * An open delivery of 1,000 litres today. Partner, location and product are new records of their own unless
 * their numbers are given, so the delivery refers to nothing a test did not make.
 */
export async function buildEinlieferung(scope: TenantScope, input: Input<Lieferung> = {}): Promise<Lieferung & Meta> {
  const references = {
    partnerNr: input.partnerNr ?? (await buildTauschpartner(scope, { by: input.by })).nr,
    standortNr: input.standortNr ?? (await buildStandort(scope, { by: input.by })).nr,
    produktNr: input.produktNr ?? (await buildProdukt(scope, { by: input.by })).nr,
  };
  const today = new Date().toISOString().slice(0, 10);
  return build(einlieferungConfig, scope, 'FE', () => ({ entladedatum: today, entladeneMenge: '1000', unitOfMeasure: 'L', status: 'open' }), { ...input, ...references });
}

/**
 * The body of a valid certificate as a form or the API sends it: 10,000 L of FAME from used cooking oil at 1001,
 * E = 10 from its parts (the worked example of domain-notes.md: S 89.36 %, 27.753 t). Pass what the test is about.
 */
export const zertifikatEingabe = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  ausstellungsdatum: '2026-03-02', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31', zertifizierungssystem: 'ISCC EU', schema: 'massenbilanz',
  redIIKonform: true, standortNr: '1001', produktNr: 'P013', menge: '10000', einheit: 'L', lieferungVon: '2026-02-01', lieferungBis: '2026-02-15',
  rohstoff: 'altspeiseoel', herkunftsland: 'DE', abfall: true, nachhaltig: true, anlageInbetriebnahme: '2019-05-01',
  eec: '0', el: '0', ep: '6.5', etd: '3.5', eu: '0', esca: '0', eccs: '0', eccr: '0', gesamtStandardwert: '10', lieferant: 'Ölmühle Nord GmbH',
  ...over,
});
