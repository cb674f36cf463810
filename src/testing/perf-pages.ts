// The pages the page-weight test, the round-trip test and the benchmark (bench/) look at, named once: the
// inbound deliveries, the list a big trader has most rows in. Every consumer reads these constants, never a
// path of its own.

export interface ListUnderTest {
  /** Route-tree path of the list page below /{lang}. */
  page: string;
  /** The JSON list of the same rows. */
  api: string;
  /** A detail page that exists in the demo data (below /{lang}). */
  detail: string;
  /** A filter, a sort and a page that make the database work: what the benchmark asks for. */
  benchQuery: string;
  /** Area the bench user needs to read the list (permission role types, see src/permissions/areas.ts). */
  rollen: number[];
}

export const LIST: ListUnderTest = {
  page: 'bewegungsdaten/einlieferungen',
  api: '/api/einlieferungen',
  detail: 'bewegungsdaten/einlieferungen/EL-000001',
  // The completed deliveries, oldest first, page 50 (10 rows a page): a filter, the other direction of the
  // default sort, and a page well inside the result.
  benchQuery: 'status=completed&sort=entladedatum:asc&page=50',
  rollen: [9],
};

/** Public pages: the login form and the THG display (DEMO's, under the demo link of the API contract). */
export const LOGIN_PAGE = '/de/login';
export const THG_PAGE = '/de/thg-anzeige/demo-thg-anzeige';
/** The THG display's large-screen mode (a wall display). */
export const THG_VOLLBILD_PAGE = `${THG_PAGE}?vollbild=1`;
/** The user guide with a search: every chapter and the results in one page (src/features/hilfe). */
export const HILFE_PAGE = '/de/hilfe/dokumentation?q=Importcode';
/** A page that mounts a React island (needs ADMIN in DEMO and `?benutzer=<id>` of a manageable user). */
export const ISLAND_PAGE = '/de/benutzer/berechtigungsverwaltung';

/** The filling-station view's JSON at its default location (the first of the user's), and the right it needs (BestandRead). */
export const TANKSTELLE = { api: '/api/tankstelle', rollen: [13] } as const;

/** The link under which the bench's tenant publishes its THG display (a shape the token column accepts). */
export const benchThgToken = (tenant: string): string => `bench-thg-${tenant.toLowerCase()}-anzeige`;
