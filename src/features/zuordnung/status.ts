// The delivery certificate status as a column and filter of the Ablieferungen list, computed in SQL from the
// delivery's live assignments (its proofs not cancelled) and their certificates, by the same rule as
// lieferungZertifikatStatus (src/domain/zuordnung.ts): bio quantity = menge × biogehalt / 100 to the
// thousandth, each assignment converted to the delivery's unit and rounded to the thousandth, one thousandth
// forgiven per assignment in the other unit. zuordnung.test.ts compares the column with the rule.
//
// The filter is written so an index serves it: "keine" is an anti-join and the other two a semi-join on the
// index of one live assignment per delivery and certificate (nachweisbescheinigungen_zuordnung_uq), so the
// list never computes the status of deliveries it does not show.
import { ZERTIFIKAT_STATUS, type ZertifikatStatus } from '../../domain/lieferkette.js';
import { inEinheitSql } from '../../domain/units.js';
import type { LieferungListExtras } from '../lieferungen/lieferung.js';

const D = 'd';

/** The live assignments of the list's delivery `d` (alias `b`). */
const LIVE = `from nachweisbescheinigungen b where b.mandant = ${D}.mandant and b.ablieferung_nr = ${D}.nr and not b.storniert`;

/** An assignment's volume in the delivery's unit. */
const volumenInLieferEinheit = (() => {
  // Converted with the density of the certificate's group (the delivery's bio component), as the rule does.
  const cols = { menge: 'b.volumen', einheit: 'b.einheit', gruppe: 'b.produktgruppe' };
  return `(case when ${D}.einheit = 'kg' then ${inEinheitSql('kg', cols)} else ${inEinheitSql('L', cols)} end)`;
})();

/** The delivery's bio quantity in its unit (bioMenge of src/domain/lieferkette.ts). */
const BIO = `round(${D}.menge * round(coalesce(${D}.biogehalt, 100), 3) / 100, 3)`;

/** The status of the list's delivery `d`: one of ZERTIFIKAT_STATUS. */
export const ZERTIFIKAT_STATUS_SQL = `(select case
    when count(*) = 0 then 'keine'
    when bool_and(not n.vorlaeufig)
      and sum(${volumenInLieferEinheit}) >= ${BIO} - 0.001 * count(*) filter (where b.einheit <> ${D}.einheit) then 'mit_endgueltigen'
    else 'ohne_endgueltige' end
  from nachweisbescheinigungen b join nachweise n on n.mandant = b.mandant and n.nr = b.nachweis_nr
  where b.mandant = ${D}.mandant and b.ablieferung_nr = ${D}.nr and not b.storniert)`;

const VARIANT: Record<ZertifikatStatus, 'neutral' | 'warning' | 'success'> = { keine: 'neutral', ohne_endgueltige: 'warning', mit_endgueltigen: 'success' };

/** The badge of a status (list, detail page). */
export const statusBadge = (s: ZertifikatStatus) => ({ label: `zuordnung:status.${s}`, variant: VARIANT[s] });

/** Column, filter and SQL of the Ablieferungen list (LieferungSpec.listExtras). */
export const zertifikatStatusListe: LieferungListExtras = {
  columns: [{
    key: 'zertifikatStatus',
    label: 'zuordnung:fields.zertifikatStatus',
    csvOnly: true,
    badge: (r) => statusBadge((r.zertifikatStatus as ZertifikatStatus) ?? 'keine'),
  }],
  // On the page under the delivery's status: the list has no room for a column of its own at 1366 px.
  statusBadge: (r) => {
    const s = (r.zertifikatStatus as ZertifikatStatus) ?? 'keine';
    return { label: `zuordnung:statusListe.${s}`, variant: VARIANT[s] };
  },
  filters: [{
    key: 'zertifikatStatus',
    label: 'zuordnung:fields.zertifikatStatus',
    kind: 'select',
    // The index that serves it: the live assignments by delivery (list-plans.test.ts).
    sql: 'b.ablieferung_nr',
    options: ZERTIFIKAT_STATUS.map((s) => ({ value: s, label: `zuordnung:status.${s}` })),
    where: (qb, value) => (value === 'keine'
      ? qb.whereRaw(`not exists (select 1 ${LIVE})`)
      : qb.whereRaw(`exists (select 1 ${LIVE}) and ${ZERTIFIKAT_STATUS_SQL} = ?`, [value])),
  }],
  select: [`${ZERTIFIKAT_STATUS_SQL} as zertifikat_status`],
  toRow: (row) => ({ zertifikatStatus: row.zertifikat_status ?? 'keine' }),
  follows: ['nachweisbescheinigungen', 'nachweise'],
};
