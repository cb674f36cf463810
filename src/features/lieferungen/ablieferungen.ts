// Ablieferungen (outbound deliveries): a delivery with the spec's names menge, uomMenge and lieferdatum, and the
// certificates assigned to it (src/features/zuordnung): their status as a list column and filter and on the
// record, a tab to assign and remove them, the delivery's Nachweisbescheinigung as PDF, and edits and a
// cancellation that keep the delivery as its certificates were checked against.
import { z } from 'zod';
import type { EntityConfig } from '../../records/entity.js';
import { ABLIEFERUNG_SPEC, type Ablieferung } from '../zuordnung/ablieferung.js';
import { zuordnungenBleiben } from '../zuordnung/aenderung.js';
import { nachweiseTab, zuordnungRoutes } from '../zuordnung/routes.js';
import { stand } from '../zuordnung/service.js';
import { zertifikatStatusListe } from '../zuordnung/status.js';
import { lieferungEntity, type Lieferung } from './lieferung.js';

const base = lieferungEntity({ ...ABLIEFERUNG_SPEC, listExtras: zertifikatStatusListe });

export const ablieferungConfig: EntityConfig<Lieferung> = {
  ...base,
  // Pushed by traders' ERP and tank systems (issue 19): POST /api/ablieferungen/bulk.
  bulk: true,
  // Location, group and bio quantity stay as the assigned certificates were checked against, and no cancelling.
  prepare: zuordnungenBleiben(base.prepare!),
  sections: [...(base.sections ?? []), nachweiseTab],
  detailLocals: async ({ scope, record }) => (record ? { headSection: '../zuordnung/status', zertifikatStand: await stand(scope, record as Ablieferung) } : {}),
  extraRoutes: zuordnungRoutes,
  // GET of one Ablieferung carries its certificate status (the list rows carry it from the list's SQL).
  api: { detail: async (scope, a) => ({ zertifikatStatus: (await stand(scope, a as Ablieferung)).zertifikatStatus }), fields: { zertifikatStatus: z.enum(['keine', 'ohne_endgueltige', 'mit_endgueltigen']) } },
};
