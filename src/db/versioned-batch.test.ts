// The imports' batch writes (VersionedStore.createMany/updateMany) must leave exactly what create/update leave:
// same current row, same version rows (full record, changes). Each case writes one record through the single
// writes and its twin through the batch writes, and compares; deliveries keep a status of their own.
// The detail page's one-statement read (getWithHistory) must match get() and history().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { einlieferungConfig } from '../features/lieferungen/einlieferungen.js';
import { produktStore } from '../features/produkte/config.js';
import { standortStore } from '../features/standorte/config.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { TenantScope } from './scope.js';
import { changesOf, type VersionedStore } from './versioned.js';

let t: TestApp;
let scope: TenantScope;
beforeAll(async () => {
  t = await createTestApp();
  scope = new TenantScope(t.db.knex, 'DEMO');
});
afterAll(() => t.close());

async function versionRows(table: string, nr: string) {
  const rows = await t.db.knex(`${table}_versionen`).where({ mandant: 'DEMO', nr }).orderBy('version');
  const parse = (x: unknown) => (typeof x === 'string' ? JSON.parse(x) : x);
  return rows.map((r) => {
    const { nr: _nr, updatedAt: _at, ...data } = parse(r.data);
    return { version: r.version, benutzer: r.benutzer_id, changes: parse(r.changes), data };
  });
}

async function current(table: string, nr: string) {
  const { nr: _nr, updated_at: _u, created_at: _c, ...row } = await t.db.knex(table).where({ mandant: 'DEMO', nr }).first();
  return row;
}

async function compare<T extends Record<string, unknown>>(store: VersionedStore<T>, created: T, patches: Partial<T>[], [a, b]: [string, string]) {
  await store.create(scope, a, created, 1);
  await scope.transaction((tx) => store.createMany(tx, [{ nr: b, data: created }], 1));
  for (const patch of patches) {
    await store.update(scope, a, patch, 1);
    await scope.transaction(async (tx) => {
      const before = (await store.currentMany(tx, [b], true)).get(b)!;
      const changes = changesOf(before, patch, Object.keys(store.spec.fields));
      if (changes.length) await store.updateMany(tx, [{ nr: b, data: patch, changes }], 1);
    });
  }
  expect(await versionRows(store.spec.table, b)).toEqual(await versionRows(store.spec.table, a));
  expect(await current(store.spec.table, b)).toEqual(await current(store.spec.table, a));
}

describe('batch writes of versioned records', () => {
  it('match VersionedStore for locations: texts, empties, booleans, unchanged updates', async () => {
    await compare(
      standortStore,
      { name: 'Lager', strasse: null, hausNr: '1', plz: '20457', stadt: 'Hamburg', land: null, code: 'HH', anlage: null, quota: true },
      [{ name: 'Lager Nord', plz: null, quota: false }, { name: 'Lager Nord' }, { stadt: 'Kiel', hausNr: '' as unknown as null }],
      ['VB-1', 'VB-2'],
    );
  });

  it('match VersionedStore for products: decimals compare by value', async () => {
    await compare(
      produktStore,
      { name: 'B7', produktgruppe: 'diesel', produkttyp: null, biogehalt: '7', lcv: '35.79', lcvEinheit: 'MJ/L', beschreibung: null, kommentar: null },
      [{ biogehalt: '7.0000', lcv: '35.790' }, { biogehalt: '6.5', lcv: '36' }],
      ['VB-P1', 'VB-P2'],
    );
  });

  it('match VersionedStore for deliveries: their own status, dates, references with versions', async () => {
    await compare(
      einlieferungConfig.store,
      {
        typ: null, biogehalt: '7', entladeneMenge: '1234.5', unitOfMeasure: 'L', entladedatum: '2025-11-03', status: 'inProgress', manuelleEingabe: false,
        partnerNr: 'TP001', partnerVersion: 1, standortNr: '1001', standortVersion: 1, produktNr: 'P001', produktVersion: 1, produktgruppe: 'diesel',
        contractNumber: null, incoterm: 'DAP', vehicleName: null, kommentar: null, storniert: false,
      },
      [{ entladeneMenge: '1234.500', status: 'completed' }, { entladedatum: '2025-11-04', kommentar: 'später' }],
      ['VB-E1', 'VB-E2'],
    );
  });

  it('reads a record with its history in one statement exactly as get() and history() read them', async () => {
    await standortStore.create(scope, 'VH1', { name: 'Depot Vorher', quota: false } as never, 1);
    await standortStore.update(scope, 'VH1', { name: 'Depot Nachher' } as never, 1);
    const both = await standortStore.getWithHistory(scope, 'VH1');
    expect(both).toEqual({ record: await standortStore.get(scope, 'VH1'), history: await standortStore.history(scope, 'VH1') });
    expect(both!.history.map((h) => h.version)).toEqual([2, 1]);
    // Times as ISO 8601 (the API's /versionen shows them so).
    expect(both!.history[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await standortStore.getWithHistory(scope, 'GIBTSNICHT')).toBeNull();
  });
});
