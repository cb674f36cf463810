// Spec section 6 as data: the role types and, per area, which role types allow viewing and editing.
export const ROLE_TYPES = {
  1: 'ProduktRead', 2: 'ProduktWrite', 3: 'StandortRead', 4: 'StandortWrite', 5: 'PartnerRead',
  6: 'PartnerWrite', 7: 'AbholungRead', 8: 'AbholungWrite', 9: 'EinlieferungRead', 10: 'EinlieferungWrite',
  11: 'AblieferungRead', 12: 'AblieferungWrite', 13: 'BestandRead', 14: 'BestandWrite', 15: 'Nachweis',
  16: 'Nachweisverfolgung', 17: 'Cockpit', 18: 'Report', 19: 'ImportInbound', 20: 'ImportOutbound',
  21: 'ZertifikatRead', 22: 'ZertifikatWrite', 23: 'BilanzRead', 24: 'BilanzWrite', 25: 'PocRead',
} as const;

export type RoleType = keyof typeof ROLE_TYPES;

/** `view`: any of these role types; `edit`: any of these (empty: nobody but an administrator). */
export interface AreaRule {
  view: readonly RoleType[];
  edit: readonly RoleType[];
  /**
   * Role types that make the area's sidebar entry visible, where they differ from `view` (spec section 6). They
   * also open the page the entry leads to (can(…, 'open', …)), not the area's data.
   */
  sidebar?: readonly RoleType[];
}

export const AREAS = {
  einlieferungen: { view: [9, 10], edit: [10] },
  ablieferungen: { view: [11, 12], edit: [12] },
  abholungen: { view: [7, 8], edit: [8] },
  bestaende: { view: [13, 14], edit: [14] },
  'tankstelle-bestand': { view: [13, 14], edit: [14], sidebar: [17] },
  nachweisverfolgung: { view: [16], edit: [16] },
  nachweisbescheinigungen: { view: [15], edit: [15] },
  nachweise: { view: [21, 22], edit: [22] },
  bilanzen: { view: [23, 24], edit: [24] },
  pocs: { view: [25], edit: [] },
  'bewegungsdaten-import': { view: [19, 20], edit: [19, 20], sidebar: [19, 20, 22] },
  // The import page is one area (either right opens it); what may be imported is decided per type: inbound
  // deliveries with 19 (ImportInbound), outbound with 20 (ImportOutbound), each at the right's locations.
  'import-einlieferungen': { view: [19], edit: [19] },
  'import-ablieferungen': { view: [20], edit: [20] },
  tauschpartner: { view: [5, 6], edit: [6] },
  standorte: { view: [3, 4], edit: [4] },
  produkte: { view: [1, 2], edit: [2] },
  'stammdaten-import': { view: [2, 4, 6], edit: [2, 4, 6] },
  reports: { view: [18], edit: [18] },
} as const satisfies Record<string, AreaRule>;

export type Area = keyof typeof AREAS;

/** The area that decides whether a user may import deliveries of one direction, and at which locations. */
export const IMPORT_AREAS = { einlieferungen: 'import-einlieferungen', ablieferungen: 'import-ablieferungen' } as const satisfies Record<string, Area>;

/** Pages that are not an area of the table: open to every signed-in user, or decided by a flag. */
export type Gate = Area | 'open' | 'admin' | 'systemAdmin' | 'support';
