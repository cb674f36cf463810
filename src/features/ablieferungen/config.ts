// Ablieferungen (outbound deliveries): a delivery with the spec's names menge, uomMenge and lieferdatum. Its
// assigned certificates (with volume and share) arrive with the certificates feature as this entity's
// detailLocals and extraRoutes.
import { deliveryEntity } from '../bewegungsdaten/delivery.js';
import { DELIVERY_NAMES } from '../bewegungsdaten/names.js';

export const ablieferungConfig = deliveryEntity({
  resource: 'ablieferungen',
  area: 'ablieferungen',
  names: DELIVERY_NAMES.ablieferungen,
});
