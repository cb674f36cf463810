// Einlieferungen (inbound deliveries): a delivery with the spec's names entladeneMenge, unitOfMeasure and
// entladedatum. An inbound delivery will be linked to exactly one collection (Abholung) and unlinked again;
// that link arrives with the collections feature as this entity's detailLocals and extraRoutes.
import { lieferungEntity } from './lieferung.js';
import { LIEFERUNG_NAMES } from './names.js';

export const einlieferungConfig = lieferungEntity({
  resource: 'einlieferungen',
  area: 'einlieferungen',
  names: LIEFERUNG_NAMES.einlieferungen,
});
