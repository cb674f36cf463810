// Ablieferungen (outbound deliveries): a delivery with the spec's names menge, uomMenge and lieferdatum. Its
// assigned certificates (with volume and share) arrive with the certificates feature as this entity's
// detailLocals and extraRoutes.
import { lieferungEntity } from './lieferung.js';
import { LIEFERUNG_NAMES } from './names.js';

export const ablieferungConfig = lieferungEntity({
  resource: 'ablieferungen',
  area: 'ablieferungen',
  names: LIEFERUNG_NAMES.ablieferungen,
});
