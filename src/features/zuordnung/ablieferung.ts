// The outbound delivery as the assignment of certificates reads and locks it: the same versioned store as the
// Ablieferungen entity (features/lieferungen), declared from the same spec names, so this feature need not
// import the entity that mounts it (ablieferungen.ts hooks this feature in).
import type { Meta } from '../../db/versioned.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import type { Einheit } from '../../domain/units.js';
import type { ZuLieferung } from '../../domain/zuordnung.js';
import { auditKindOf } from '../../records/service.js';
import { lieferungStore, type Lieferung, type LieferungSpec } from '../lieferungen/lieferung.js';
import { LIEFERUNG_NAMES } from '../lieferungen/names.js';

export const ABLIEFERUNG_SPEC = { resource: 'ablieferungen', area: 'ablieferungen', names: LIEFERUNG_NAMES.ablieferungen } as const satisfies LieferungSpec;

export const ablieferungStore = lieferungStore(ABLIEFERUNG_SPEC);

export type Ablieferung = Lieferung & Meta;

/** The delivery's quantity, unit, bio content and group: what the assignment rules measure against. */
export function zuLieferung(a: Ablieferung): ZuLieferung {
  return {
    menge: String(a.menge),
    einheit: a.uomMenge as Einheit,
    biogehalt: a.biogehalt == null ? null : String(a.biogehalt),
    gruppe: a.produktgruppe as Produktgruppe,
  };
}

/** The audit kinds of assigning and unassigning: entries on the delivery, named as its other changes are. */
const ENTITY = { path: `bewegungsdaten/${ABLIEFERUNG_SPEC.resource}`, resource: ABLIEFERUNG_SPEC.resource };
export const AUDIT_ZUORDNEN = auditKindOf(ENTITY, 'nachweis-zuordnen');
export const AUDIT_ENTFERNEN = auditKindOf(ENTITY, 'nachweis-entfernen');
