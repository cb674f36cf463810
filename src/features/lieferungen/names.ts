// What a delivery is called and which values its choice fields take, without any server code, so the browser
// (the import-code editor) knows the same names as the server. The spec names three fields differently per
// direction: entladeneMenge/unitOfMeasure/entladedatum for Einlieferungen, menge/uomMenge/lieferdatum for
// Ablieferungen.
export const LIEFERSTATUS = ['open', 'inProgress', 'completed', 'locked'] as const;
export type Lieferstatus = (typeof LIEFERSTATUS)[number];

/** Incoterms 2020. */
export const INCOTERMS = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF'] as const;

/** The spec's names of a delivery's quantity, unit and date fields. */
export interface LieferungNames {
  menge: string;
  einheit: string;
  datum: string;
}

export const LIEFERUNG_NAMES = {
  einlieferungen: { menge: 'entladeneMenge', einheit: 'unitOfMeasure', datum: 'entladedatum' },
  ablieferungen: { menge: 'menge', einheit: 'uomMenge', datum: 'lieferdatum' },
} as const satisfies Record<string, LieferungNames>;

export type DeliveryResource = keyof typeof LIEFERUNG_NAMES;
export const DELIVERY_RESOURCES = Object.keys(LIEFERUNG_NAMES) as DeliveryResource[];
