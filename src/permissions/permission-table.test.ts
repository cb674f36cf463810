// Spec section 6's permission table, typed here again from the spec as test data (deliberately NOT imported from
// roles.ts), and checked row by row against can(), standortScope() and the real pages. A wrong entry in the code's
// table fails here. The areas' JSON APIs do not exist yet: when those features land, their API tests should
// iterate over this same SPEC_TABLE (view → GET 200 / 403, edit → write 2xx / 403).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn, type Agent } from '../testing/session.js';
import { can, isAdmin, standortScope, type Action, type Area, type Principal } from './index.js';
import { PAGES } from './route-tree.js';

interface SpecRow {
  area: string;
  /** "View needs": any one of these role types. */
  view: number[];
  /** "Edit needs"; null where the spec says "not stated" (no expectation beyond: nobody without a role). */
  edit: number[] | null;
  /** Role types that show the sidebar entry, where the spec names them apart from `view`. */
  sidebar?: number[];
  /** The area's list pages below /{lang} (spec section 2). */
  pages: string[];
}

const SPEC_TABLE: SpecRow[] = [
  { area: 'einlieferungen', view: [9, 10], edit: [10], pages: ['bewegungsdaten/einlieferungen'] },
  { area: 'ablieferungen', view: [11, 12], edit: [12], pages: ['bewegungsdaten/ablieferungen'] },
  { area: 'abholungen', view: [7, 8], edit: [8], pages: ['bewegungsdaten/abholungen'] },
  { area: 'bestaende', view: [13, 14], edit: [14], pages: ['bewegungsdaten/bestaende'] },
  { area: 'tankstelle-bestand', view: [13, 14], edit: [14], sidebar: [17], pages: ['bewegungsdaten/tankstelle-bestand'] },
  { area: 'nachweisverfolgung', view: [16], edit: [16], pages: ['bewegungsdaten/nachweisverfolgung'] },
  { area: 'nachweisbescheinigungen', view: [15], edit: [15], pages: ['bewegungsdaten/nachweisbescheinigungen'] },
  { area: 'nachweise', view: [21, 22], edit: [22], pages: ['bewegungsdaten/nachweise'] },
  { area: 'bilanzen', view: [23, 24], edit: [24], pages: ['bewegungsdaten/bilanzen'] },
  { area: 'pocs', view: [25], edit: null, pages: ['bewegungsdaten/pocs'] },
  { area: 'bewegungsdaten-import', view: [19, 20], edit: null, sidebar: [19, 20, 22], pages: ['bewegungsdaten/import'] },
  { area: 'tauschpartner', view: [5, 6], edit: [6], pages: ['stammdaten/tauschpartner'] },
  { area: 'standorte', view: [3, 4], edit: [4], pages: ['stammdaten/standorte'] },
  { area: 'produkte', view: [1, 2], edit: [2], pages: ['stammdaten/produkte'] },
  // "shown with write on products, locations or partners"
  { area: 'stammdaten-import', view: [2, 4, 6], edit: null, pages: ['stammdaten/import'] },
  { area: 'reports', view: [18], edit: [18], pages: ['reports/liste', 'reports/auswertungen'] },
];

const ROLE_TYPES = Array.from({ length: 25 }, (_, i) => i + 1);
const ACTIONS: Action[] = ['view', 'edit', 'sidebar', 'open'];

const principal = (overrides: Partial<Principal> = {}): Principal => ({
  adminKz: false, supportKz: false, tenantAdminKz: false, rollen: [], ...overrides,
});
const only = (typ: number, standortNr: string | null = null) => principal({ rollen: [{ typ, standortNr }] });
const sidebarTypes = (row: SpecRow) => row.sidebar ?? row.view;
/** Who may open the page an entry leads to: the view roles and the sidebar roles (docs/decisions.md, "Navigation"). */
const openTypes = (row: SpecRow) => [...new Set([...row.view, ...sidebarTypes(row)])];

describe.each(SPEC_TABLE)('spec row $area', (row) => {
  const area = row.area as Area;

  it.each(ROLE_TYPES)('with only role type %i: view, edit and sidebar as the table says', (typ) => {
    const p = only(typ);
    expect(can(p, 'view', area), 'view').toBe(row.view.includes(typ));
    expect(can(p, 'sidebar', area), 'sidebar').toBe(sidebarTypes(row).includes(typ));
    expect(can(p, 'open', area), 'open').toBe(openTypes(row).includes(typ));
    // "Editing needs write": a role that may edit may also view.
    if (row.edit) {
      expect(can(p, 'edit', area), 'edit').toBe(row.edit.includes(typ));
      if (row.edit.includes(typ)) expect(can(p, 'view', area)).toBe(true);
    }
  });

  it('without any role: nothing', () => {
    for (const action of ACTIONS) expect(can(principal(), action, area), action).toBe(false);
    expect(standortScope(principal(), 'view', area)).toEqual([]);
  });

  it('an administrator (system flag or tenant-admin flag) passes every check', () => {
    for (const admin of [principal({ adminKz: true }), principal({ tenantAdminKz: true })]) {
      for (const action of ACTIONS) expect(can(admin, action, area), action).toBe(true);
      expect(can(admin, 'edit', area, '9999')).toBe(true);
      expect(standortScope(admin, 'view', area)).toBe('all');
      expect(standortScope(admin, 'edit', area)).toBe('all');
    }
  });

  it('a support user is no administrator: flags do not open the area, roles do', () => {
    const supportWithFlags = principal({ supportKz: true, adminKz: true, tenantAdminKz: true });
    for (const action of ACTIONS) expect(can(supportWithFlags, action, area), action).toBe(false);
    const supportWithRole = principal({ supportKz: true, rollen: [{ typ: row.view[0], standortNr: null }] });
    expect(can(supportWithRole, 'view', area)).toBe(true);
  });

  it('a location-limited role holds for its location only, and standortScope lists it', () => {
    for (const typ of row.view) {
      const p = only(typ, '1001');
      expect(can(p, 'view', area, '1001')).toBe(true);
      expect(can(p, 'view', area, '1002')).toBe(false);
      expect(can(p, 'view', area)).toBe(true); // "somewhere": the list page opens, its rows are limited
      expect(standortScope(p, 'view', area)).toEqual(['1001']);
      expect(standortScope(only(typ), 'view', area)).toBe('all');
    }
    const twoPlaces = principal({ rollen: [{ typ: row.view[0], standortNr: '1001' }, { typ: row.view[row.view.length - 1], standortNr: '1003' }] });
    expect([...(standortScope(twoPlaces, 'view', area) as string[])].sort()).toEqual(['1001', '1003']);
    // A tenant-wide role beats a location-limited one.
    expect(standortScope(principal({ rollen: [{ typ: row.view[0], standortNr: '1001' }, { typ: row.view[0], standortNr: null }] }), 'view', area)).toBe('all');
    for (const typ of row.edit ?? []) {
      const p = only(typ, '1002');
      expect(can(p, 'edit', area, '1002')).toBe(true);
      expect(can(p, 'edit', area, '1001')).toBe(false);
      expect(standortScope(p, 'edit', area)).toEqual(['1002']);
    }
    // Read-only at a location gives no location to edit.
    const readOnly = row.view.filter((typ) => !(row.edit ?? []).includes(typ));
    if (row.edit) for (const typ of readOnly) expect(standortScope(only(typ, '1001'), 'edit', area)).toEqual([]);
  });

  it('its list pages are in the route tree behind this area', () => {
    for (const path of row.pages) {
      expect(PAGES.find((p) => p.path === path), path).toMatchObject({ gate: row.area, inSidebar: true });
    }
  });
});

describe('pages that are not areas of the table', () => {
  it('the route tree has no area the spec table does not name', () => {
    const named = new Set<string>([...SPEC_TABLE.map((r) => r.area), 'open', 'admin', 'systemAdmin', 'support']);
    expect(PAGES.map((p) => p.gate).filter((g) => !named.has(g))).toEqual([]);
  });

  it('dashboard and the other open pages: everyone signed in', () => {
    for (const action of ACTIONS) expect(can(principal(), action, 'open')).toBe(true);
    expect(PAGES.find((p) => p.path === 'benutzer/dashboard')?.gate).toBe('open');
  });

  it('admin pages: system and tenant administrators, never support; the tenant list: the system flag only', () => {
    expect(can(principal({ adminKz: true }), 'view', 'admin')).toBe(true);
    expect(can(principal({ tenantAdminKz: true }), 'view', 'admin')).toBe(true);
    expect(can(principal({ tenantAdminKz: true }), 'view', 'systemAdmin')).toBe(false);
    expect(can(principal({ adminKz: true }), 'view', 'systemAdmin')).toBe(true);
    expect(can(principal({ rollen: ROLE_TYPES.map((typ) => ({ typ, standortNr: null })) }), 'view', 'admin')).toBe(false);
    const support = principal({ supportKz: true, adminKz: true, tenantAdminKz: true });
    expect(isAdmin(support)).toBe(false);
    expect(can(support, 'view', 'admin')).toBe(false);
    expect(can(support, 'view', 'systemAdmin')).toBe(false);
    for (const path of ['benutzer/berechtigungsverwaltung', 'benutzer/administration', 'benutzer/rollen']) {
      expect(PAGES.find((p) => p.path === path)?.gate, path).toBe('admin');
    }
    for (const path of ['benutzer/mandanten', 'benutzer/gesetzeswerte']) expect(PAGES.find((p) => p.path === path)?.gate, path).toBe('systemAdmin');
  });

  it('logmeldungen: support only, not even administrators', () => {
    expect(can(principal({ supportKz: true }), 'view', 'support')).toBe(true);
    expect(can(principal({ supportKz: true }), 'sidebar', 'support')).toBe(true);
    expect(can(principal({ adminKz: true }), 'view', 'support')).toBe(false);
    expect(can(principal({ tenantAdminKz: true }), 'view', 'support')).toBe(false);
    expect(can(principal({ rollen: ROLE_TYPES.map((typ) => ({ typ, standortNr: null })) }), 'view', 'support')).toBe(false);
    expect(PAGES.find((p) => p.path === 'reports/logmeldungen')?.gate).toBe('support');
  });
});

// Through HTTP with the real app: one user per role type (plus one without any role) in tenant DEMO, created once.
describe('the list pages through HTTP', () => {
  const PASSWORD = 'Tabelle12345';
  let t: TestApp;
  const agents = new Map<number | 'none', Agent>();
  const sidebars = new Map<number | 'none', string>();

  beforeAll(async () => {
    t = await createTestApp();
    const hash = await hashPassword(PASSWORD); // argon2 is slow on purpose: one hash for all of them
    for (const typ of [...ROLE_TYPES, 'none'] as const) {
      const login = `TABELLE_${typ}`.toUpperCase();
      const [{ id }] = await t.db.knex('benutzer')
        .insert({ login, email: `${login.toLowerCase()}@test.example`, vorname: 'Rolle', nachname: String(typ), password_hash: hash })
        .returning('id');
      await t.db.knex('benutzer_mandanten').insert({ mandant: 'DEMO', benutzer_id: id, admin_kz: false });
      if (typ !== 'none') await t.db.knex('rollen').insert({ mandant: 'DEMO', benutzer_id: id, typ, standort_nr: null });
    }
    await Promise.all(
      [...ROLE_TYPES, 'none' as const].map(async (typ) => {
        const agent = await signIn(t.app, `TABELLE_${typ}`, PASSWORD);
        agents.set(typ, agent);
        // The sidebar only: the header's main navigation links to fixed pages for everyone.
        const html = (await agent.get('/de/benutzer/dashboard')).text;
        sidebars.set(typ, html.slice(html.indexOf('<aside class="sidebar"'), html.indexOf('</aside>')));
      }),
    );
  }, 120_000);
  afterAll(() => t.close());

  const cases = SPEC_TABLE.flatMap((row) => row.pages.map((path) => ({ area: row.area, path, row })));

  it.each(cases)('$path ($area): 200 with each view or sidebar role, to the dashboard without one', async ({ path, row }) => {
    for (const typ of openTypes(row)) {
      const res = await agents.get(typ)!.get(`/de/${path}`);
      expect(res.status, `role type ${typ}`).toBe(200);
    }
    const refused = await agents.get('none')!.get(`/de/${path}`);
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toBe('/de/benutzer/dashboard');
    // Every other role type is refused too.
    for (const typ of ROLE_TYPES.filter((r) => !openTypes(row).includes(r))) {
      const res = await agents.get(typ)!.get(`/de/${path}`);
      expect(res.status, `role type ${typ}`).toBe(302);
    }
  });

  // The spec's sidebar rules as they stand (section 6): movement import shown with 19, 20 or 22, Tankstelle with
  // Cockpit 17, every other entry with the view roles; the test above shows each of them the page opens.
  it.each(cases)('$path ($area): sidebar link exactly for the spec\'s sidebar role types', ({ path, row }) => {
    const shown = sidebarTypes(row);
    for (const typ of ROLE_TYPES) {
      expect(sidebars.get(typ), 'the sidebar was found').toContain('href="/de/benutzer/dashboard"');
      expect(sidebars.get(typ)!.includes(`href="/de/${path}"`), `role type ${typ}`).toBe(shown.includes(typ));
    }
    expect(sidebars.get('none')).not.toContain(`href="/de/${path}"`);
  });

  it('a sidebar-only holder reaches the page and is told what they may do there, but gets no more than that', async () => {
    // ZertifikatWrite (22) alone: the movement import entry, the page says they import no deliveries and where
    // certificates are imported; the import's own routes (template, upload, codes) stay with 19/20.
    const zertifikate = agents.get(22)!;
    expect(sidebars.get(22)).toContain('href="/de/bewegungsdaten/import"');
    const page = await zertifikate.get('/de/bewegungsdaten/import');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sie dürfen keine Ein- oder Ablieferungen importieren');
    expect(page.text).toContain('href="/de/bewegungsdaten/nachweise/import"');
    expect(page.text).not.toContain('id="import-form"');
    expect((await zertifikate.get('/de/bewegungsdaten/import/vorlage/einlieferungen')).headers.location).toBe('/de/benutzer/dashboard');
    // Read (21) alone sees no entry and cannot open the page.
    expect(sidebars.get(21)).not.toContain('href="/de/bewegungsdaten/import"');
    // ImportInbound (19) is not sent to the certificates' import it may not use.
    expect((await agents.get(19)!.get('/de/bewegungsdaten/import')).text).not.toContain('href="/de/bewegungsdaten/nachweise/import"');
    // Cockpit (17) alone: the Tankstelle entry and its page; the stock data of the area stays with 13/14.
    expect(sidebars.get(17)).toContain('href="/de/bewegungsdaten/tankstelle-bestand"');
    expect((await agents.get(17)!.get('/de/bewegungsdaten/tankstelle-bestand')).status).toBe(200);
    expect((await agents.get(17)!.get('/de/bewegungsdaten/bestaende')).headers.location).toBe('/de/benutzer/dashboard');
  });

  it('the dashboard is open to a user without any role, an unknown page is a 404 for them', async () => {
    const none = agents.get('none')!;
    expect((await none.get('/de/benutzer/dashboard')).status).toBe(200);
    expect((await none.get('/de/bewegungsdaten/gibt-es-nicht')).status).toBe(404);
    expect((await request(t.app).get('/de/benutzer/dashboard')).status).toBe(302); // but signed in
  });
});
