// The authenticated route tree of spec section 2, as data: path below /{lang}, the gate that guards it and
// the sidebar group it belongs to. Routes, guards, the sidebar and the main navigation are built from this.
import type { Gate } from './roles.js';

export type GroupKey = 'bewegungsdaten' | 'stammdaten' | 'reports' | 'hilfe' | 'benutzer';

export interface PageDef {
  /** Path below /{lang}, with `:id` for detail pages. */
  path: string;
  /** i18n key below `nav.` and `upcoming.` */
  key: string;
  gate: Gate;
  /** Edit pages (create forms) need the edit right. */
  action?: 'view' | 'edit';
  group: GroupKey;
  /** Listed in the sidebar (detail pages are not). */
  inSidebar: boolean;
}

const page = (group: GroupKey, path: string, key: string, gate: Gate, inSidebar = true, action: 'view' | 'edit' = 'view'): PageDef => ({
  group, path, key, gate, inSidebar, action,
});

export const SIDEBAR_GROUPS: GroupKey[] = ['bewegungsdaten', 'stammdaten', 'reports', 'hilfe', 'benutzer'];

export const PAGES: PageDef[] = [
  page('bewegungsdaten', 'bewegungsdaten/einlieferungen', 'einlieferungen', 'einlieferungen'),
  page('bewegungsdaten', 'bewegungsdaten/einlieferungen/:id', 'einlieferungen', 'einlieferungen', false),
  page('bewegungsdaten', 'bewegungsdaten/ablieferungen', 'ablieferungen', 'ablieferungen'),
  page('bewegungsdaten', 'bewegungsdaten/ablieferungen/:id', 'ablieferungen', 'ablieferungen', false),
  page('bewegungsdaten', 'bewegungsdaten/abholungen', 'abholungen', 'abholungen'),
  page('bewegungsdaten', 'bewegungsdaten/abholungen/:id', 'abholungen', 'abholungen', false),
  page('bewegungsdaten', 'bewegungsdaten/bestaende', 'bestaende', 'bestaende'),
  page('bewegungsdaten', 'bewegungsdaten/bestaende/create', 'bestaende', 'bestaende', false, 'edit'),
  page('bewegungsdaten', 'bewegungsdaten/bestaende/:id', 'bestaende', 'bestaende', false),
  page('bewegungsdaten', 'bewegungsdaten/nachweisbescheinigungen', 'nachweisbescheinigungen', 'nachweisbescheinigungen'),
  page('bewegungsdaten', 'bewegungsdaten/nachweisbescheinigungen/:id', 'nachweisbescheinigungen', 'nachweisbescheinigungen', false),
  page('bewegungsdaten', 'bewegungsdaten/tankstelle-bestand', 'tankstelle-bestand', 'tankstelle-bestand'),
  page('bewegungsdaten', 'bewegungsdaten/nachweisverfolgung', 'nachweisverfolgung', 'nachweisverfolgung'),
  page('bewegungsdaten', 'bewegungsdaten/nachweisverfolgung/:id', 'nachweisverfolgung', 'nachweisverfolgung', false),
  page('bewegungsdaten', 'bewegungsdaten/nachweise', 'nachweise', 'nachweise'),
  page('bewegungsdaten', 'bewegungsdaten/nachweise/import', 'nachweise', 'nachweise', false, 'edit'),
  page('bewegungsdaten', 'bewegungsdaten/nachweise/:id', 'nachweise', 'nachweise', false),
  page('bewegungsdaten', 'bewegungsdaten/bilanzen', 'bilanzen', 'bilanzen'),
  page('bewegungsdaten', 'bewegungsdaten/bilanzen/:id', 'bilanzen', 'bilanzen', false),
  page('bewegungsdaten', 'bewegungsdaten/pocs', 'pocs', 'pocs'),
  page('bewegungsdaten', 'bewegungsdaten/import', 'bewegungsdaten-import', 'bewegungsdaten-import'),
  page('stammdaten', 'stammdaten/tauschpartner', 'tauschpartner', 'tauschpartner'),
  page('stammdaten', 'stammdaten/tauschpartner/:id', 'tauschpartner', 'tauschpartner', false),
  page('stammdaten', 'stammdaten/standorte', 'standorte', 'standorte'),
  page('stammdaten', 'stammdaten/standorte/:id', 'standorte', 'standorte', false),
  page('stammdaten', 'stammdaten/produkte', 'produkte', 'produkte'),
  page('stammdaten', 'stammdaten/produkte/:id', 'produkte', 'produkte', false),
  page('stammdaten', 'stammdaten/import', 'stammdaten-import', 'stammdaten-import'),
  page('reports', 'reports/liste', 'reports-liste', 'reports'),
  page('reports', 'reports/auswertungen', 'reports-auswertungen', 'reports'),
  page('reports', 'reports/logmeldungen', 'logmeldungen', 'support'),
  page('hilfe', 'hilfe/dokumentation', 'dokumentation', 'open'),
  page('hilfe', 'hilfe/faq', 'faq', 'open'),
  page('hilfe', 'hilfe/hilfevideos', 'hilfevideos', 'open'),
  page('benutzer', 'benutzer/dashboard', 'dashboard', 'open'),
  page('benutzer', 'benutzer/passwort', 'passwort', 'open'),
  page('benutzer', 'benutzer/einstellungen', 'einstellungen', 'open'),
  page('benutzer', 'benutzer/berechtigungen', 'berechtigungen', 'open'),
  page('benutzer', 'benutzer/nachrichten', 'nachrichten', 'open'),
  page('benutzer', 'benutzer/release-notes', 'release-notes', 'open'),
  page('benutzer', 'benutzer/berechtigungsverwaltung', 'berechtigungsverwaltung', 'admin'),
  page('benutzer', 'benutzer/administration', 'administration', 'admin'),
  page('benutzer', 'benutzer/mandanten', 'mandanten', 'systemAdmin'),
  page('benutzer', 'benutzer/gesetzeswerte', 'gesetzeswerte', 'systemAdmin'),
  page('benutzer', 'benutzer/rollen', 'rollen', 'admin'),
  page('benutzer', 'benutzer/thg-anzeige', 'thg-anzeige-verwaltung', 'admin'),
  page('benutzer', 'benutzer/api-keys', 'api-keys', 'admin'),
];

/** The UI kit pages under /{lang}/layouts (spec section 2). */
export const LAYOUT_PAGES = [
  'about', 'accordion', 'badge', 'breadcrumb', 'button-group', 'button-icons', 'button', 'data-display',
  'date-picker', 'input', 'pagination', 'sidebar', 'table', 'tabs-group',
] as const;
