// The record service through HTTP against the real database: a change and its audit entry commit or roll back
// together, and an action mounted as a resource has its guard, its audit entry and its version check.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope } from '../db/scope.js';
import { standortConfig } from '../features/standorte/config.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { recordService } from './service.js';
import { createUserWithRoles } from '../testing/users.js';
import { csrfFrom, signIn } from '../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // LESEN reads deliveries (role types 1/3/5/9/11/13: view only), everywhere.
  await createUserWithRoles(t.db.knex, 'LESEN', 'Geheim12345', [1, 3, 5, 9, 11, 13].map((typ) => ({ typ, standortNr: null })));
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string) => ({ Authorization: await token(login, password), 'X-Mandant': 'DEMO' });
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const auditOf = (entityId: string) => t.db.knex('audit_log').where({ mandant: 'DEMO', entity_id: entityId }).orderBy('id').select('kind', 'before', 'after');
const parsed = (x: unknown) => (typeof x === 'string' ? JSON.parse(x) : x);

let n = 0;
const einlieferung = () => ({
  nr: `RS-${++n}`, entladedatum: daysAgo(2), entladeneMenge: '1000', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016',
});

describe('record service: a change and its audit entry are one transaction', () => {
  it('rolls the change back when its audit entry cannot be written, and commits both otherwise', async () => {
    const auth = await as('TADMIN', 'Tadmin12345');
    const created = await request(t.app).post('/api/standorte').set(auth).send({ nr: 'RS-AUDIT', name: 'Depot Vorher', quota: false });
    expect(created.status).toBe(201);
    // The database refuses this one kind of audit entry, as a full disk or a broken constraint would.
    await t.db.knex.raw(`create function refuse_update_audit() returns trigger language plpgsql as $$
      begin if new.kind = 'stammdaten.standorte.update' then raise exception 'audit refused'; end if; return new; end $$`);
    await t.db.knex.raw('create trigger refuse_update_audit before insert on audit_log for each row execute function refuse_update_audit()');
    try {
      const refused = await request(t.app).put('/api/standorte/RS-AUDIT').set(auth).send({ name: 'Depot Nachher', quota: false, version: 1 });
      expect(refused.status).toBe(500);
      expect(JSON.stringify(refused.body)).not.toContain('audit refused');
      const row = await t.db.knex('standorte').where({ mandant: 'DEMO', nr: 'RS-AUDIT' }).first();
      expect(row).toMatchObject({ name: 'Depot Vorher', version: 1 });
      expect(await t.db.knex('standorte_versionen').where({ mandant: 'DEMO', nr: 'RS-AUDIT' }).pluck('version')).toEqual([1]);
    } finally {
      await t.db.knex.raw('drop trigger refuse_update_audit on audit_log');
      await t.db.knex.raw('drop function refuse_update_audit()');
    }
    const saved = await request(t.app).put('/api/standorte/RS-AUDIT').set(auth).send({ name: 'Depot Nachher', quota: false, version: 1 });
    expect(saved.body.data).toMatchObject({ name: 'Depot Nachher', version: 2 });
    expect((await auditOf('RS-AUDIT')).map((a) => a.kind)).toEqual(['stammdaten.standorte.create', 'stammdaten.standorte.update']);
  });

  it('renames and renumbers in one transaction, with one audit entry for each', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const auth = await as('TADMIN', 'Tadmin12345');
    await request(t.app).post('/api/standorte').set(auth).send({ nr: 'RS-OLD', name: 'Alt', quota: false });
    const page = await agent.get('/de/stammdaten/standorte/RS-OLD');
    const res = await agent.post('/de/stammdaten/standorte/RS-OLD').type('form')
      .send({ _csrf: csrfFrom(page.text), version: '1', nr: 'RS-NEW', confirmNr: 'RS-NEW', name: 'Neu' });
    expect(res.headers.location).toBe('/de/stammdaten/standorte/RS-NEW');
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: 'RS-NEW' }).first()).toMatchObject({ name: 'Neu', version: 3 });
    expect((await auditOf('RS-NEW')).map((a) => a.kind)).toEqual(['stammdaten.standorte.renumber']);
    expect((await auditOf('RS-OLD')).map((a) => a.kind)).toEqual(['stammdaten.standorte.create', 'stammdaten.standorte.update']);
  });
});

describe('record service: several records in one transaction', () => {
  it('commits two writes together, or neither when the second is refused', async () => {
    const scope = new TenantScope(t.db.knex, 'DEMO');
    const actor = { user: { id: 1 }, mandant: 'DEMO' };
    const standorte = recordService(standortConfig);
    await scope.transaction(async (tx) => {
      await standorte.create(tx, actor, { nr: 'RS-T1', name: 'Erstes', quota: false } as never);
      await standorte.create(tx, actor, { nr: 'RS-T2', name: 'Zweites', quota: false } as never);
    });
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO' }).whereIn('nr', ['RS-T1', 'RS-T2']).pluck('nr')).toHaveLength(2);

    // The second number is taken: the first create of the same transaction is rolled back with it, audit and all.
    await expect(scope.transaction(async (tx) => {
      await standorte.create(tx, actor, { nr: 'RS-T3', name: 'Drittes', quota: false } as never);
      await standorte.create(tx, actor, { nr: 'RS-T1', name: 'Doppelt', quota: false } as never);
    })).rejects.toMatchObject({ kind: 'invalid', errors: [{ field: 'nr', message: 'records:errors.nrTaken' }] });
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: 'RS-T3' }).first()).toBeUndefined();
    expect(await auditOf('RS-T3')).toEqual([]);
  });
});

describe('actions mounted as resources', () => {
  it('cancels a delivery through POST /api/einlieferungen/{nr}/storno: audited, version-checked, undone with storniert=false', async () => {
    const auth = await as('USER', 'User12345');
    const b = einlieferung();
    expect((await request(t.app).post('/api/einlieferungen').set(auth).send(b)).status).toBe(201);

    const stale = await request(t.app).post(`/api/einlieferungen/${b.nr}/storno`).set(auth).send({ version: 7 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Der Datensatz wurde inzwischen von jemand anderem geändert. Ihre Änderungen wurden nicht gespeichert.');
    expect(await t.db.knex('einlieferungen').where({ mandant: 'DEMO', nr: b.nr }).first('storniert', 'version')).toEqual({ storniert: false, version: 1 });

    const done = await request(t.app).post(`/api/einlieferungen/${b.nr}/storno`).set(auth).send({ version: 1 });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ nr: b.nr, storniert: true, version: 2 });
    const [create, storno] = await auditOf(b.nr);
    expect(create.kind).toBe('bewegungsdaten.einlieferungen.create');
    expect(storno.kind).toBe('bewegungsdaten.einlieferungen.storno');
    expect(parsed(storno.before)).toMatchObject({ storniert: false, version: 1 });
    expect(parsed(storno.after)).toMatchObject({ storniert: true, version: 2 });

    const undone = await request(t.app).post(`/api/einlieferungen/${b.nr}/storno`).set(auth).set('If-Match', '"2"').send({ storniert: false });
    expect(undone.body.data).toMatchObject({ storniert: false, version: 3 });
  });

  it('refuses a reader (403) and a malformed input (400 naming the field), changing nothing', async () => {
    const b = einlieferung();
    await request(t.app).post('/api/einlieferungen').set(await as('USER', 'User12345')).send(b);
    const reader = await request(t.app).post(`/api/einlieferungen/${b.nr}/storno`).set(await as('LESEN', 'Geheim12345')).send({});
    expect(reader.status).toBe(403);
    const bad = await request(t.app).post(`/api/einlieferungen/${b.nr}/storno`).set(await as('USER', 'User12345')).send({ storniert: 'vielleicht' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'storniert' })]);
    expect(await t.db.knex('einlieferungen').where({ mandant: 'DEMO', nr: b.nr }).first('storniert', 'version')).toEqual({ storniert: false, version: 1 });
    expect((await auditOf(b.nr)).map((a) => a.kind)).toEqual(['bewegungsdaten.einlieferungen.create']);

    // The page offers no cancel button to the reader; a post anyway goes back with the no-permission notice.
    const agent = await signIn(t.app, 'LESEN', 'Geheim12345');
    const detail = `/de/bewegungsdaten/einlieferungen/${b.nr}`;
    const page = await agent.get(detail);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`${b.nr}/storno`);
    const post = await agent.post(`${detail}/storno`).set('Referer', detail).type('form').send({ _csrf: csrfFrom(page.text) });
    expect(post.headers.location).toBe(detail);
    // The no-permission dialog comes open (explained once: no toast besides it).
    const back = (await agent.get(detail)).text;
    expect(back).toMatch(/<dialog[^>]*id="no-permission-dialog"[^>]*\sopen[\s>]/);
    expect(back).not.toContain('Sie haben keine Berechtigung für diese Seite.');
    expect(await t.db.knex('einlieferungen').where({ mandant: 'DEMO', nr: b.nr }).first('storniert')).toEqual({ storniert: false });
  });

  it('refuses to cancel a completed delivery (409) and says why on the page', async () => {
    const auth = await as('USER', 'User12345');
    const b = einlieferung();
    await request(t.app).post('/api/einlieferungen').set(auth).send({ ...b, status: 'completed' });
    const api = await request(t.app).post(`/api/einlieferungen/${b.nr}/storno`).set(auth).send({});
    expect(api.status).toBe(409);
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const page = await agent.get(`/de/bewegungsdaten/einlieferungen/${b.nr}`);
    expect(page.text).not.toContain(`${b.nr}/storno`);
    const post = await agent.post(`/de/bewegungsdaten/einlieferungen/${b.nr}/storno`).type('form').send({ _csrf: csrfFrom(page.text) });
    expect(post.headers.location).toBe(`/de/bewegungsdaten/einlieferungen/${b.nr}`);
    expect((await agent.get(post.headers.location)).text).toContain('abgeschlossen');
    expect(await t.db.knex('einlieferungen').where({ mandant: 'DEMO', nr: b.nr }).first('storniert')).toEqual({ storniert: false });
  });

  it('deactivates master data through POST /api/standorte/{nr}/status, audited with the status before and after', async () => {
    const auth = await as('TADMIN', 'Tadmin12345');
    await request(t.app).post('/api/standorte').set(auth).send({ nr: 'RS-ST', name: 'Depot', quota: false });
    const off = await request(t.app).post('/api/standorte/RS-ST/status').set(auth).send({ status: 'inaktiv', version: 1 });
    expect(off.body.data).toMatchObject({ status: 'inaktiv', version: 2 });
    const entries = await auditOf('RS-ST');
    expect(entries.map((a) => a.kind)).toEqual(['stammdaten.standorte.create', 'stammdaten.standorte.status']);
    expect([parsed(entries[1].before), parsed(entries[1].after)]).toEqual([{ status: 'aktiv' }, { status: 'inaktiv' }]);
    // The same status again changes nothing and writes no entry.
    await request(t.app).post('/api/standorte/RS-ST/status').set(auth).send({ status: 'inaktiv' });
    expect(await auditOf('RS-ST')).toHaveLength(2);
    // Another tenant's record is not found.
    const nord = { Authorization: await token('ADMIN', 'Admin12345'), 'X-Mandant': 'NORD' };
    expect((await request(t.app).post('/api/standorte/RS-ST/status').set(nord).send({ status: 'aktiv' })).status).toBe(404);
  });
});

describe('detail tabs', () => {
  it('answers 404 for a tab the record type does not have, and for the versions of another tenant’s record', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const unknown = await agent.get('/de/bewegungsdaten/einlieferungen/EL-000001?tab=gibtsnicht');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Diesen Bereich gibt es für diesen Datensatz nicht.');
    // Master data has no Stammdatenstand tab.
    expect((await agent.get('/de/stammdaten/produkte/P001?tab=stammdaten')).status).toBe(404);
    const nord = { Authorization: await token('ADMIN', 'Admin12345'), 'X-Mandant': 'NORD' };
    expect((await request(t.app).post('/api/standorte').set(nord).send({ nr: 'RS-NORD', name: 'Nur im Norden', quota: false })).status).toBe(201);
    expect((await agent.get('/de/stammdaten/standorte/RS-NORD?tab=versionen')).status).toBe(404);
  });
});
