// Einlieferungen (inbound deliveries): a delivery with the spec's names entladeneMenge, unitOfMeasure and
// entladedatum. An inbound delivery will be linked to exactly one collection (Abholung) and unlinked again;
// that link arrives with the collections feature as this entity's detailLocals and extraRoutes.
import { deliveryEntity } from '../bewegungsdaten/delivery.js';
import { DELIVERY_NAMES } from '../bewegungsdaten/names.js';

export const einlieferungConfig = deliveryEntity({
  resource: 'einlieferungen',
  area: 'einlieferungen',
  names: DELIVERY_NAMES.einlieferungen,
});
