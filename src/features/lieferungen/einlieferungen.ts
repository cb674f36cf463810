// Einlieferungen (inbound deliveries): a delivery with the spec's names entladeneMenge, unitOfMeasure and
// entladedatum. An inbound delivery is linked to exactly one collection (Abholung) and unlinked again
// (features/abholungen/verknuepfung.ts): its list shows the link status as a column and a filter, its page a
// tab "Abholung" with the link, and its API the contract's `…/{nr}/abholung` routes.
import { z } from 'zod';
import type { Meta } from '../../db/versioned.js';
import type { EntityConfig, RecordSection } from '../../records/entity.js';
import { einlieferungListExtras, verknuepfungBadge } from '../abholungen/einlieferung-status.js';
import { einlieferungAbholungRoutes, rechteAus } from '../abholungen/routes.js';
import { abholungChoices, abholungFuer, darfVerknuepfen, statusOf } from '../abholungen/verknuepfung.js';
import { lieferungEntity, type Lieferung } from './lieferung.js';
import { LIEFERUNG_NAMES } from './names.js';

const base = lieferungEntity({
  resource: 'einlieferungen',
  area: 'einlieferungen',
  names: LIEFERUNG_NAMES.einlieferungen,
  listExtras: einlieferungListExtras,
});

/**
 * The tab "Abholung": the linked collection (a link where the user may open it) with its link status and an
 * unlink button, or a form to link one (collections at the delivery's location and of its group are offered;
 * any number may be typed).
 */
const abholungTab: RecordSection<Lieferung> = {
  key: 'abholung',
  label: 'einlieferungen:abholung.tab',
  view: 'abholungen/einlieferung-abholung',
  locals: async ({ scope, record, scopeFor }) => {
    const e = record! as Lieferung & Meta;
    const rechte = rechteAus(scopeFor);
    const nr = (e.abholungNr as string | null) ?? null;
    const abholung = await abholungFuer(rechte.abholungen.view, nr);
    const kannVerknuepfen = !nr && !e.storniert && darfVerknuepfen(rechte, e.standortNr, e.standortNr);
    const status = await statusOf(scope, nr);
    return {
      verknuepfung: {
        abholungNr: nr,
        abholung,
        status,
        badge: verknuepfungBadge(status),
        kannLoesen: Boolean(abholung && darfVerknuepfen(rechte, e.standortNr, abholung.lieferstelleNr)),
        kannVerknuepfen,
        auswahl: kannVerknuepfen ? await abholungChoices(rechte.abholungen.view, e) : [],
      },
    };
  },
};

export const einlieferungConfig: EntityConfig<Lieferung> = {
  ...base,
  // Pushed by traders' ERP and tank systems (issue 19): POST /api/einlieferungen/bulk.
  bulk: true,
  sections: [...(base.sections ?? []), abholungTab],
  extraRoutes: einlieferungAbholungRoutes,
  // GET of one Einlieferung carries its link status (the list rows carry it from the list's SQL).
  api: { detail: async (scope, e) => ({ verknuepfungStatus: await statusOf(scope, (e.abholungNr as string | null) ?? null) }), fields: { verknuepfungStatus: z.enum(['nicht_verknuepft', 'vorlaeufig', 'endgueltig']) } },
};
