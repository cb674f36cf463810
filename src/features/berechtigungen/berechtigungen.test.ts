import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn, type Agent } from '../../testing/session.js';

let t: TestApp;
const ids: Record<string, number> = {};
let nordOnlyId: number;

beforeAll(async () => {
  t = await createTestApp();
  for (const row of await t.db.knex('benutzer').select('id', 'login')) ids[row.login] = row.id;
  const [{ id }] = await t.db
    .knex('benutzer')
    .insert({ login: 'NORDONLY', email: 'nordonly@example.org', vorname: 'Nora', nachname: 'Nord', password_hash: await hashPassword('Nord12345') })
    .returning('id');
  nordOnlyId = id;
  await t.db.knex('benutzer_mandanten').insert({ mandant: 'NORD', benutzer_id: id, admin_kz: false });
  await t.db.knex('rollen').insert({ mandant: 'NORD', benutzer_id: id, typ: 1, standort_nr: null });
});
afterAll(() => t.close());

const PAGE = '/de/benutzer/berechtigungsverwaltung';
const EINLIEFERUNGEN_LINK = 'href="/de/bewegungsdaten/einlieferungen"';

/** The sidebar of a page (the main navigation links to Einlieferungen for everyone; the sidebar does not). */
async function sidebarOf(agent: Agent): Promise<string> {
  const res = await agent.get('/de/benutzer/dashboard');
  return res.text.match(/<aside class="sidebar"[\s\S]*?<\/aside>/)![0];
}

/** The user's role rows in one tenant, as "typ@location" (location empty for all locations). */
async function rolesOf(userId: number, mandant = 'DEMO'): Promise<string[]> {
  const rows = await t.db.knex('rollen').where({ benutzer_id: userId, mandant }).orderBy(['typ', 'standort_nr']).select('typ', 'standort_nr');
  return rows.map((r) => `${r.typ}@${r.standort_nr ?? ''}`);
}

/** A JSON client on a page session: tenant header and the CSRF token of the session. */
async function apiClient(agent: Agent, mandant = 'DEMO') {
  const csrf = csrfFrom((await agent.get('/de/benutzer/einstellungen')).text);
  const headers = { 'X-Mandant': mandant, 'X-CSRF-Token': csrf, Accept: 'application/json' };
  return {
    get: (id: number | string) => agent.get(`/api/berechtigungen/${id}`).set(headers),
    put: (id: number | string, body: unknown) => agent.put(`/api/berechtigungen/${id}`).set(headers).send(body as object),
  };
}

const LESER_BASE = [
  { area: 'standorte', canRead: true, canWrite: false, standortNr: '1001' },
  { area: 'produkte', canRead: true, canWrite: false, standortNr: '1001' },
];

describe('role overview and own permissions (seed data)', () => {
  it('lists the 25 role types with their holders in this tenant', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await admin.get('/de/benutzer/rollen');
    expect(res.status).toBe(200);
    expect(res.text.match(/<tr>\s*<th scope="row"/g)).toHaveLength(25);
    const produktRead = res.text.match(/<th scope="row"[^>]*>ProduktRead<\/th>([\s\S]*?)<\/tr>/)![1];
    expect(produktRead).toContain('Produkte ansehen');
    expect(produktRead).toContain('Lars Lehmann (Standort 1001)');
    expect(produktRead).toContain('Ulrike Urban (alle Standorte)');
    // NORD's roles are not DEMO's business.
    expect(produktRead).not.toContain('Nora Nord');
    const pocWrite = res.text.match(/<th scope="row"[^>]*>BilanzWrite<\/th>([\s\S]*?)<\/tr>/)![1];
    expect(pocWrite).toContain('niemand');
  });

  it('shows a reader which areas and locations they may see', async () => {
    const leser = await signIn(t.app, 'LESER', 'Leser12345');
    const res = await leser.get('/de/benutzer/berechtigungen');
    expect(res.status).toBe(200);
    const row = (area: string) => res.text.match(new RegExp(`<th scope="row"[^>]*>${area}</th>([\\s\\S]*?)</tr>`))![1];
    expect(row('Produkte')).toContain('Ja, Standort 1001 (Tanklager Hamburg-Waltershof)');
    expect(row('Standorte')).toContain('Ja, Standort 1001 (Tanklager Hamburg-Waltershof)');
    expect(row('Produkte').match(/Nein/g)).toHaveLength(1); // viewing yes, editing no
    expect(row('Einlieferungen').match(/Nein/g)).toHaveLength(2);
    expect(res.text).toContain('Benutzer');
  });

  it('tells an administrator that they may do everything', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await admin.get('/en/benutzer/berechtigungen');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Administrator of this tenant');
    expect(res.text.match(/Yes, all locations/g)!.length).toBeGreaterThanOrEqual(16);
  });
});

describe('permission management page', () => {
  it('offers only non-administrative members of the tenant', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await admin.get(PAGE);
    expect(res.status).toBe(200);
    const select = res.text.match(/<select id="pm-benutzer"[\s\S]*?<\/select>/)![0];
    for (const login of ['LESER', 'USER', 'MFA']) expect(select).toContain(`value="${ids[login]}"`);
    for (const login of ['ADMIN', 'TADMIN', 'SUPPORT']) expect(select).not.toContain(`value="${ids[login]}"`);
    expect(select).not.toContain(`value="${nordOnlyId}"`);
    expect(res.text).not.toContain('data-island=');
  });

  it('shows the matrix as a plain form inside the island element, with labelled checkboxes', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await admin.get(`${PAGE}?benutzer=${ids.LESER}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`data-island="permission-matrix" data-props='{&#34;userId&#34;:${ids.LESER}`);
    expect(res.text).toContain(`action="/de/benutzer/berechtigungsverwaltung/${ids.LESER}"`);
    // Two scopes: all locations and location 1001, where LESER holds rights.
    expect(res.text).toContain('<legend>Alle Standorte</legend>');
    expect(res.text).toContain('<legend>Standort 1001 – Tanklager Hamburg-Waltershof</legend>');
    expect(res.text).toMatch(/name="read" value="produkte@1001" checked>/);
    expect(res.text).toMatch(/name="read" value="produkte@" >/);
    expect(res.text).toContain('Einlieferungen – schreiben – Standort 1001 – Tanklager Hamburg-Waltershof</label>');
    // Cockpit has no write right: no checkbox. Nachweisbescheinigungen read comes with write: disabled.
    expect(res.text).not.toContain('value="cockpit@"  name="write"');
    expect(res.text).not.toMatch(/name="write" value="cockpit@/);
    expect(res.text).toMatch(/id="pm-0-nachweise-read" disabled/);
    // The island loader is on the page.
    expect(res.text).toMatch(/<script type="module" src="[^"]*main[^"]*\.js"/);
  });

  it('adds a location fieldset through the GET form', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await admin.get(`${PAGE}?benutzer=${ids.LESER}&standort=1001&standort=1003&standort=9999`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<legend>Standort 1003 – Tankstelle Bremen-Vegesack</legend>');
    expect(res.text).not.toContain('Standort 9999');
    expect(res.text.match(/<legend>/g)).toHaveLength(3);
    const add = res.text.match(/<select id="pm-add-standort"[\s\S]*?<\/select>/)![0];
    expect(add).toContain('value="1002"');
    expect(add).not.toContain('value="1003"');
  });

  it('refuses administrators, support, other tenants\' users and nonsense ids on the page', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const adminTarget = await admin.get(`${PAGE}?benutzer=${ids.ADMIN}`);
    expect(adminTarget.status).toBe(409);
    expect(adminTarget.text).toContain('Für Administratoren können keine Berechtigungen gesetzt werden');
    expect((await admin.get(`${PAGE}?benutzer=${ids.SUPPORT}`)).status).toBe(409);
    for (const id of [nordOnlyId, 'abc', 999999]) {
      const res = await admin.get(`${PAGE}?benutzer=${id}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Benutzer nicht gefunden');
    }
  });

  it('sends a non-admin to the dashboard', async () => {
    const user = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    for (const path of [PAGE, '/de/benutzer/rollen']) {
      const res = await user.get(path);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/de/benutzer/dashboard');
    }
    const page = await user.get('/de/benutzer/einstellungen');
    const before = await rolesOf(ids.LESER);
    const post = await user.post(`${PAGE}/${ids.LESER}`).type('form').send({ _csrf: csrfFrom(page.text), write: 'einlieferungen@' });
    expect(post.headers.location).toBe('/de/benutzer/dashboard');
    expect(await rolesOf(ids.LESER)).toEqual(before);
  });
});

describe('granting through the HTML form', () => {
  it('takes effect on the next request of the signed-in user, with an audit entry', async () => {
    const leser = await signIn(t.app, 'LESER', 'Leser12345');
    expect(await sidebarOf(leser)).not.toContain(EINLIEFERUNGEN_LINK);

    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await admin.get(`${PAGE}?benutzer=${ids.LESER}`);
    const res = await admin
      .post(`${PAGE}/${ids.LESER}`)
      .type('form')
      .send(`_csrf=${encodeURIComponent(csrfFrom(page.text))}&read=standorte%401001&read=produkte%401001&write=einlieferungen%401001`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${PAGE}?benutzer=${ids.LESER}#matrix`);
    const after = await admin.get(res.headers.location.replace('#matrix', ''));
    expect(after.text).toContain('Gespeichert.');
    expect(after.text).toMatch(/name="write" value="einlieferungen@1001" checked>/);
    expect(await rolesOf(ids.LESER)).toEqual(['1@1001', '3@1001', '9@1001', '10@1001']);

    const entry = await t.db.knex('audit_log').where({ kind: 'admin.berechtigungen.update' }).orderBy('id', 'desc').first();
    expect(entry).toMatchObject({ mandant: 'DEMO', benutzer_id: ids.TADMIN, entity: 'benutzer', entity_id: String(ids.LESER) });
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
    expect(parse(entry.after)).toContainEqual({ area: 'einlieferungen', canRead: true, canWrite: true, standortNr: '1001' });
    expect(parse(entry.before)).not.toContainEqual(expect.objectContaining({ area: 'einlieferungen' }));

    // Same session, no new login: the sidebar now has the entry, and the page opens.
    expect(await sidebarOf(leser)).toContain(EINLIEFERUNGEN_LINK);
    expect((await leser.get('/de/bewegungsdaten/einlieferungen')).status).toBe(200);
  });

  it('refuses a form value naming an unknown area or location and changes nothing', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const before = await rolesOf(ids.LESER);
    for (const value of ['gibtsnicht@', 'produkte@2001']) {
      const page = await admin.get(`${PAGE}?benutzer=${ids.LESER}`);
      const res = await admin.post(`${PAGE}/${ids.LESER}`).type('form').send({ _csrf: csrfFrom(page.text), read: value });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Bitte überprüfen Sie Ihre Eingabe');
    }
    expect(await rolesOf(ids.LESER)).toEqual(before);
  });
});

describe('permission API', () => {
  it('PUT replaces the permissions, GET returns what was saved, and the user sees it on the next request', async () => {
    const leser = await signIn(t.app, 'LESER', 'Leser12345');
    const api = await apiClient(await signIn(t.app, 'TADMIN', 'Tadmin12345'));

    const revoked = await api.put(ids.LESER, { permissions: LESER_BASE });
    expect(revoked.status).toBe(200);
    expect(await rolesOf(ids.LESER)).toEqual(['1@1001', '3@1001']);
    expect(await sidebarOf(leser)).not.toContain(EINLIEFERUNGEN_LINK);

    const permissions = [...LESER_BASE, { area: 'einlieferungen', canRead: false, canWrite: true, standortNr: '1001' }];
    const res = await api.put(ids.LESER, { permissions });
    expect(res.status).toBe(200);
    expect(res.headers['x-mandant']).toBe('DEMO');
    const expected = expect.arrayContaining([
      ...LESER_BASE,
      { area: 'einlieferungen', canRead: true, canWrite: true, standortNr: '1001' },
    ]);
    expect(res.body).toEqual({ success: true, data: { userId: ids.LESER, permissions: expected } });
    expect(res.body.data.permissions).toHaveLength(3);
    expect(await rolesOf(ids.LESER)).toEqual(['1@1001', '3@1001', '9@1001', '10@1001']);

    const got = await api.get(ids.LESER);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect(await sidebarOf(leser)).toContain(EINLIEFERUNGEN_LINK);
  });

  it('refuses a non-admin with 403 on GET and PUT', async () => {
    const api = await apiClient(await signIn(t.app, 'USER', 'User12345', 'DEMO'));
    const before = await rolesOf(ids.LESER);
    const get = await api.get(ids.LESER);
    expect(get.status).toBe(403);
    expect(get.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await api.put(ids.LESER, { permissions: [] })).status).toBe(403);
    expect(await rolesOf(ids.LESER)).toEqual(before);
  });

  it('answers 400 with a field error for an unknown area and changes nothing', async () => {
    const api = await apiClient(await signIn(t.app, 'TADMIN', 'Tadmin12345'));
    const before = await rolesOf(ids.LESER);
    const res = await api.put(ids.LESER, { permissions: [{ area: 'gibtsnicht', canRead: true, canWrite: false, standortNr: null }] });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual([{ field: 'permissions.0.area', message: 'Ungültiger Wert' }]);
    expect(await rolesOf(ids.LESER)).toEqual(before);
  });

  it.each([
    ['a location of another tenant', { area: 'produkte', canRead: true, canWrite: false, standortNr: '2001' }, 'permissions.1.standortNr'],
    ['an unknown location', { area: 'produkte', canRead: true, canWrite: false, standortNr: '4711' }, 'permissions.1.standortNr'],
    ['a write where the area has none', { area: 'cockpit', canRead: true, canWrite: true, standortNr: null }, 'permissions.1.canWrite'],
    ['reading alone where reading comes with writing', { area: 'nachweise', canRead: true, canWrite: false, standortNr: null }, 'permissions.1.canRead'],
    ['the same area and scope twice', { area: 'standorte', canRead: true, canWrite: true, standortNr: '1001' }, 'permissions.1'],
    ['a wrong type', { area: 'produkte', canRead: 'ja', canWrite: false, standortNr: null }, 'permissions.1.canRead'],
    ['an unknown field', { area: 'produkte', canRead: true, canWrite: false, standortNr: null, extra: 1 }, 'extra'],
  ])('answers 400 for %s and changes nothing', async (_label, entry, field) => {
    const api = await apiClient(await signIn(t.app, 'TADMIN', 'Tadmin12345'));
    const before = await rolesOf(ids.LESER);
    const res = await api.put(ids.LESER, { permissions: [LESER_BASE[0], entry] });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await rolesOf(ids.LESER)).toEqual(before);
  });

  it('refuses more than 500 entries and a body that is not the contract\'s', async () => {
    const api = await apiClient(await signIn(t.app, 'TADMIN', 'Tadmin12345'));
    const before = await rolesOf(ids.LESER);
    const many = Array.from({ length: 501 }, () => LESER_BASE[0]);
    expect((await api.put(ids.LESER, { permissions: many })).status).toBe(400);
    expect((await api.put(ids.LESER, { rollen: [] })).status).toBe(400);
    expect((await api.put(ids.LESER, [])).status).toBe(400);
    expect(await rolesOf(ids.LESER)).toEqual(before);
  });

  it('answers 404 for a user of another tenant, an unknown id and a non-numeric id, and changes nothing', async () => {
    const api = await apiClient(await signIn(t.app, 'TADMIN', 'Tadmin12345'));
    const nordBefore = await rolesOf(nordOnlyId, 'NORD');
    for (const id of [nordOnlyId, 999999, 'abc', '1e3', '-1']) {
      const get = await api.get(id);
      expect(get.status).toBe(404);
      expect(get.body.message).toBe('Benutzer nicht gefunden');
      const put = await api.put(id, { permissions: [{ area: 'produkte', canRead: true, canWrite: true, standortNr: null }] });
      expect(put.status).toBe(404);
      expect(put.body.message).toBe('Benutzer nicht gefunden');
    }
    expect(await rolesOf(nordOnlyId, 'NORD')).toEqual(nordBefore);
    expect(await rolesOf(nordOnlyId, 'DEMO')).toEqual([]);
  });

  it('works per tenant: a system admin in NORD manages NORD\'s user, not DEMO\'s', async () => {
    const nord = await apiClient(await signIn(t.app, 'ADMIN', 'Admin12345', 'NORD'), 'NORD');
    const res = await nord.put(nordOnlyId, { permissions: [{ area: 'produkte', canRead: true, canWrite: true, standortNr: '2001' }] });
    expect(res.status).toBe(200);
    expect(await rolesOf(nordOnlyId, 'NORD')).toEqual(['1@2001', '2@2001']);
    // USER is a member of both: changing NORD leaves DEMO's rows alone.
    const userDemo = await rolesOf(ids.USER, 'DEMO');
    expect((await nord.put(ids.USER, { permissions: [] })).status).toBe(200);
    expect(await rolesOf(ids.USER, 'NORD')).toEqual([]);
    expect(await rolesOf(ids.USER, 'DEMO')).toEqual(userDemo);
  });

  it('refuses administrators and support as targets', async () => {
    const api = await apiClient(await signIn(t.app, 'TADMIN', 'Tadmin12345'));
    for (const login of ['ADMIN', 'TADMIN', 'SUPPORT']) {
      const put = await api.put(ids[login], { permissions: [{ area: 'produkte', canRead: true, canWrite: false, standortNr: null }] });
      expect(put.status).toBe(409);
      expect(put.body.code).toMatch(/^TARGET_IS_(ADMIN|SUPPORT)$/);
      expect(await rolesOf(ids[login])).toEqual([]);
    }
    const get = await api.get(ids.ADMIN);
    expect(get.status).toBe(409);
    expect(get.body.message).toBe('Für Administratoren können keine Berechtigungen gesetzt werden: Sie haben ohnehin alle Rechte.');
  });
});
