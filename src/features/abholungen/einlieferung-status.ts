// The Einlieferung list's link status (certificates-and-balances.md section 3): a column and a filter computed
// in SQL from the delivery's collection and that collection's certificates, the same rule as
// verknuepfungStatus() of src/domain/lieferkette.ts (the tests compare both against the links):
// no collection → nicht_verknuepft; some certificate of the collection provisional → vorlaeufig; else endgueltig.
// Both use indexed columns only: the delivery's `abholung_nr` (einlieferungen_abholung_idx), the collection's
// certificates by its key (abholung_nachweise's primary key) and each certificate by its key.
import type { Knex } from 'knex';
import { VERKNUEPFUNG_STATUS, type VerknuepfungStatus } from '../../domain/lieferkette.js';
import type { Meta } from '../../db/versioned.js';
import type { BadgeVariant } from '../../records/entity.js';
import type { Lieferung, LieferungListExtras } from '../lieferungen/lieferung.js';

/**
 * Some certificate of the delivery's collection (alias `d`) is provisional. `perRow`: as the column of the page's
 * rows, looked up for each row it shows (two key lookups); OFFSET 0 keeps the planner from turning it into one
 * hash of every provisional collection of the tenant, which it would build for a page of ten rows, because it
 * costs the column as if every delivery were read.
 */
const vorlaeufig = (perRow: boolean) => `exists (select 1 from abholung_nachweise an join nachweise n on n.mandant = an.mandant and n.nr = an.nachweis_nr
  where an.mandant = d.mandant and an.abholung_nr = d.abholung_nr and n.vorlaeufig${perRow ? ' offset 0' : ''})`;
const VORLAEUFIG = vorlaeufig(false);

/** The status as SQL over the list's alias `d`. */
export const VERKNUEPFUNG_STATUS_SQL = `(case when d.abholung_nr is null then 'nicht_verknuepft' when ${vorlaeufig(true)} then 'vorlaeufig' else 'endgueltig' end)`;

const BADGE: Record<VerknuepfungStatus, BadgeVariant> = { nicht_verknuepft: 'neutral', vorlaeufig: 'warning', endgueltig: 'success' };

/** The filter's condition: the null test is what the index serves; the certificates are looked at only for linked rows. */
function whereStatus(qb: Knex.QueryBuilder, value: string): void {
  if (value === 'nicht_verknuepft') qb.whereNull('d.abholung_nr');
  else if (value === 'vorlaeufig') qb.whereNotNull('d.abholung_nr').whereRaw(VORLAEUFIG);
  else qb.whereNotNull('d.abholung_nr').whereRaw(`not ${VORLAEUFIG}`);
}

const label = (s: unknown) => `einlieferungen:verknuepfung.${s}`;

/** The badge of a link status (i18n key and variant), as the list and the Einlieferung's tab show it. */
export const verknuepfungBadge = (s: VerknuepfungStatus) => ({ label: label(s), variant: BADGE[s] ?? 'neutral' });

/** What the chain of custody adds to the Einlieferung list (LieferungSpec.listExtras). */
export const einlieferungListExtras: LieferungListExtras = {
  columns: [
    {
      key: 'verknuepfungStatus', label: 'einlieferungen:fields.verknuepfungStatus', csvOnly: true,
      badge: (r: Lieferung & Meta) => verknuepfungBadge(r.verknuepfungStatus as VerknuepfungStatus),
    },
    { key: 'abholungNr', label: 'einlieferungen:fields.abholungNr', csvOnly: true },
  ],
  // On the page under the delivery's status: the list has no room for a column of its own at 1366 px.
  statusBadge: (r) => verknuepfungBadge(r.verknuepfungStatus as VerknuepfungStatus),
  filters: [{
    key: 'verknuepfungStatus', label: 'einlieferungen:fields.verknuepfungStatus', kind: 'select', sql: 'd.abholung_nr',
    options: VERKNUEPFUNG_STATUS.map((s) => ({ value: s, label: label(s) })),
    where: whereStatus,
  }],
  select: [`${VERKNUEPFUNG_STATUS_SQL} as verknuepfung_status`],
  toRow: (row) => ({ verknuepfungStatus: row.verknuepfung_status ?? 'nicht_verknuepft' }),
  // The status changes with the delivery (its own table), its collection's certificates (every change of
  // the working table comes with a new version of the collection) and the certificates' provisional flag.
  follows: ['abholungen', 'nachweise'],
};
