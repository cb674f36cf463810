// Linking an Einlieferung to the collection (Abholung) it arrived as, and unlinking it: one service for the
// Einlieferung's page and API and the collection's tab alike.
//
// An Einlieferung belongs to at most one collection: the link is its column `abholung_nr` (a constraint, not
// only code). Linking is not an edit of the delivery's fields, so it is allowed on a completed or locked one;
// it is still a new version of the Einlieferung (its history shows `abholungNr`) with an audit entry, in one
// transaction. Locks: the Einlieferung's row first (FOR UPDATE: of two links of one delivery the second waits
// and then finds it linked, 409), then the collection's (FOR SHARE: it cannot be cancelled or regrouped while
// a delivery is linked to it; links to one collection do not wait for each other). Every path that links takes
// them in this order, so two links never wait for each other in a circle.
//
// Who may link (docs/decisions.md, "Linking an Einlieferung to a collection"): whoever may edit either side
// where it is (inbound deliveries at the delivery's location, or collections at the collection's Lieferstelle)
// and may see the other. Outside that, both records are treated as not there (404), as everywhere else.
import type { Knex } from 'knex';
import { audit } from '../../db/audit.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { verknuepfungStatus, type VerknuepfungStatus } from '../../domain/lieferkette.js';
import { ProblemError } from '../../errors.js';
import { auditKindOf, type Actor } from '../../records/service.js';
import type { ChoiceOptions } from '../../records/list/engine.js';
import { lieferungStore, type Lieferung } from '../lieferungen/lieferung.js';
import { LIEFERUNG_NAMES } from '../lieferungen/names.js';
import { abholungStore, type Abholung } from './store.js';

/** The inbound deliveries' store (the same declaration as einlieferungen.ts's, which imports this feature). */
export const einlieferungStore = lieferungStore({ resource: 'einlieferungen', area: 'einlieferungen', names: LIEFERUNG_NAMES.einlieferungen });

/** Where a right holds: a TenantScope, or anything that answers the same question (the rule's unit tests). */
export interface Orte {
  allowsStandort(standortNr: string | null | undefined): boolean;
}

/** The user's locations for seeing and for changing each side of a link (src/http/tenant.ts builds them per area). */
export interface VerknuepfungsRechte<S extends Orte = TenantScope> {
  einlieferungen: { view: S; edit: S };
  abholungen: { view: S; edit: S };
}

/** Both records must be visible to the user; one of them editable. */
export function darfVerknuepfen(r: VerknuepfungsRechte<Orte>, einlieferungStandort: string, lieferstelle: string): boolean {
  const sieht = r.einlieferungen.view.allowsStandort(einlieferungStandort) && r.abholungen.view.allowsStandort(lieferstelle);
  return sieht && (r.einlieferungen.edit.allowsStandort(einlieferungStandort) || r.abholungen.edit.allowsStandort(lieferstelle));
}

const AUDIT = { path: 'bewegungsdaten/einlieferungen', resource: 'einlieferungen' };

const einlieferungUnbekannt = (nr: string) =>
  new ProblemError('not_found', 'NOT_FOUND', 'records:errors.notFound', [{ field: 'einlieferungNr', message: 'abholungen:errors.einlieferungUnbekannt', params: { nr } }]);
const abholungUnbekannt = (nr: string) =>
  new ProblemError('not_found', 'NOT_FOUND', 'abholungen:errors.abholungUnbekannt', [{ field: 'abholungNr', message: 'abholungen:errors.abholungUnbekannt', params: { nr } }], { nr });

/** The Einlieferung, locked, if it lies in the user's inbound-delivery locations; else 404. */
async function einlieferungGesperrt(tx: TenantScope, r: VerknuepfungsRechte, nr: string): Promise<Lieferung & Meta> {
  const e = await einlieferungStore.lock(tx, nr);
  if (!e || !r.einlieferungen.view.allowsStandort(e.standortNr)) throw einlieferungUnbekannt(nr);
  return e;
}

/** The collection, share-locked, if it lies in the user's collection locations; else 404. */
async function abholungGesperrt(tx: TenantScope, r: VerknuepfungsRechte, nr: string): Promise<Abholung & Meta> {
  const row = await tx.table('abholungen').where({ nr }).forShare().first();
  const a = row ? abholungStore.fromRow(row) : null;
  if (!a || !r.abholungen.view.allowsStandort(a.lieferstelleNr)) throw abholungUnbekannt(nr);
  return a;
}

const bereitsVerknuepft = (nr: string) =>
  new ProblemError('conflict', 'ALREADY_LINKED', 'abholungen:errors.bereitsVerknuepft', [{ field: 'abholungNr', message: 'abholungen:errors.bereitsVerknuepft', params: { nr } }], { nr });

/**
 * Links the Einlieferung to the collection: 404 when either is not there for the user, 409 when the delivery
 * is already linked (to this or another collection: checked first) or either is cancelled, 400 when their
 * product groups differ. Returns the Einlieferung's new version.
 */
export async function verknuepfen(rechte: VerknuepfungsRechte, actor: Actor, einlieferungNr: string, abholungNr: string): Promise<Lieferung & Meta> {
  return rechte.einlieferungen.view.transaction(async (tx) => {
    const e = await einlieferungGesperrt(tx, rechte, einlieferungNr);
    // Already linked: said before the collection is looked at (its row is then not locked at all).
    if (e.abholungNr) throw bereitsVerknuepft(String(e.abholungNr));
    const a = await abholungGesperrt(tx, rechte, abholungNr);
    if (!darfVerknuepfen(rechte, e.standortNr, a.lieferstelleNr)) throw abholungUnbekannt(abholungNr);
    if (a.storniert) throw new ProblemError('conflict', 'STORNIERT', 'abholungen:errors.abholungStorniert', [{ field: 'abholungNr', message: 'abholungen:errors.abholungStorniert', params: { nr: a.nr } }], { nr: a.nr });
    if (e.storniert) throw new ProblemError('conflict', 'STORNIERT', 'abholungen:errors.einlieferungStorniert', [{ field: 'einlieferungNr', message: 'abholungen:errors.einlieferungStorniert', params: { nr: e.nr } }], { nr: e.nr });
    if (e.produktgruppe !== a.produktgruppe) {
      const params = { nr: a.nr, gruppe: a.produktgruppe, lieferung: e.nr, lieferungGruppe: e.produktgruppe };
      throw new ProblemError('invalid', 'VALIDATION', 'errors.badRequest', [{ field: 'abholungNr', message: 'abholungen:errors.gruppeVerschieden', params }]);
    }
    const saved = await einlieferungStore.write(tx, e, { abholungNr: a.nr }, actor.user.id);
    await audit(tx.knex as Knex, {
      kind: auditKindOf(AUDIT, 'abholung'), mandant: actor.mandant, benutzerId: actor.user.id, entity: 'einlieferungen', entityId: e.nr,
      before: { abholungNr: null }, after: { abholungNr: a.nr }, ip: actor.ip,
    });
    return saved;
  });
}

/**
 * Unlinks the Einlieferung from its collection (allowed on a cancelled one too, so a mistake can be undone
 * before cancelling). `von`: the collection it must be linked to (the collection's tab), else any. 404 when it
 * is not linked (to that collection) or not there for the user.
 */
export async function loesen(rechte: VerknuepfungsRechte, actor: Actor, einlieferungNr: string, von?: string): Promise<Lieferung & Meta> {
  return rechte.einlieferungen.view.transaction(async (tx) => {
    const e = await einlieferungGesperrt(tx, rechte, einlieferungNr);
    const current = e.abholungNr ? String(e.abholungNr) : null;
    if (!current || (von !== undefined && current !== von)) {
      throw new ProblemError('not_found', 'NOT_LINKED', 'abholungen:errors.nichtVerknuepft', [{ field: 'einlieferungNr', message: 'abholungen:errors.nichtVerknuepft', params: { nr: e.nr } }], { nr: e.nr });
    }
    const a = await abholungGesperrt(tx, rechte, current);
    if (!darfVerknuepfen(rechte, e.standortNr, a.lieferstelleNr)) throw abholungUnbekannt(current);
    const saved = await einlieferungStore.write(tx, e, { abholungNr: null }, actor.user.id);
    await audit(tx.knex as Knex, {
      kind: auditKindOf(AUDIT, 'abholung-loesen'), mandant: actor.mandant, benutzerId: actor.user.id, entity: 'einlieferungen', entityId: e.nr,
      before: { abholungNr: current }, after: { abholungNr: null }, ip: actor.ip,
    });
    return saved;
  });
}

// Reading the links.

/** Whether each certificate of the collection is provisional. */
async function vorlaeufigeOf(scope: TenantScope, abholungNr: string): Promise<boolean[]> {
  const rows = await scope.table('abholung_nachweise', 'an').join('nachweise as n', (j) => j.on('n.mandant', 'an.mandant').andOn('n.nr', 'an.nachweis_nr'))
    .where('an.abholung_nr', abholungNr).select('n.vorlaeufig');
  return rows.map((r: Record<string, unknown>) => r.vorlaeufig === true);
}

/** The link status of an Einlieferung (the pure rule over its collection's certificates). */
export async function statusOf(scope: TenantScope, abholungNr: string | null): Promise<VerknuepfungStatus> {
  return verknuepfungStatus(abholungNr, abholungNr ? await vorlaeufigeOf(scope, abholungNr) : []);
}

/** A collection as the Einlieferung's tab and API show it, or null (not there, or not the user's to see). */
export async function abholungFuer(scope: TenantScope, abholungNr: string | null): Promise<(Abholung & Meta) | null> {
  if (!abholungNr) return null;
  const a = await abholungStore.get(scope, abholungNr);
  return a && scope.allowsStandort(a.lieferstelleNr) ? a : null;
}

/** An Einlieferung linked to a collection, as the collection's tab and API show it. */
export interface VerknuepfteEinlieferung {
  nr: string;
  entladedatum: string;
  entladeneMenge: string;
  unitOfMeasure: string;
  status: string;
  storniert: boolean;
  standortNr: string;
}

/**
 * The Einlieferungen linked to a collection, newest first. All of them: they are part of what the collection
 * is (the spec: a collection shows its linked deliveries), whether or not the user may open each one's page.
 */
export async function einlieferungenDer(scope: TenantScope, abholungNr: string): Promise<VerknuepfteEinlieferung[]> {
  const rows = (await scope.table('einlieferungen').where({ abholung_nr: abholungNr }).orderBy('datum', 'desc').orderBy('nr', 'desc').limit(1000)
    .select('nr', 'datum', 'menge', 'einheit', 'status', 'storniert', 'standort_nr')) as Record<string, unknown>[];
  return rows.map((r) => ({
    nr: String(r.nr), entladedatum: String(r.datum instanceof Date ? r.datum.toISOString().slice(0, 10) : r.datum), entladeneMenge: String(r.menge),
    unitOfMeasure: String(r.einheit), status: String(r.status), storniert: r.storniert === true, standortNr: String(r.standort_nr),
  }));
}

/** Collections an Einlieferung may be linked to: not cancelled, at its location, of its group, at the user's locations; newest first. */
export async function abholungChoices(scope: TenantScope, e: { standortNr: string; produktgruppe: string | null }): Promise<ChoiceOptions> {
  if (!e.produktgruppe || !scope.allowsStandort(e.standortNr)) return [];
  const rows = (await scope.table('abholungen').where({ lieferstelle_nr: e.standortNr, produktgruppe: e.produktgruppe, storniert: false })
    .orderBy('lieferdatum', 'desc').orderBy('nr', 'desc').limit(200).select('nr', 'lieferdatum', 'lieferant')) as Record<string, unknown>[];
  return rows.map((r) => ({ value: String(r.nr), label: [r.nr, isoDay(r.lieferdatum), r.lieferant].filter(Boolean).join(' · '), raw: true }));
}

/** Einlieferungen that may be linked to a collection: unlinked, not cancelled, at its Lieferstelle, of its group; newest first. */
export async function einlieferungChoices(scope: TenantScope, a: { lieferstelleNr: string; produktgruppe: string }): Promise<ChoiceOptions> {
  if (!scope.allowsStandort(a.lieferstelleNr)) return [];
  const rows = (await scope.table('einlieferungen').where({ standort_nr: a.lieferstelleNr, produktgruppe: a.produktgruppe, storniert: false }).whereNull('abholung_nr')
    .orderBy('datum', 'desc').orderBy('nr', 'desc').limit(200).select('nr', 'datum', 'menge', 'einheit')) as Record<string, unknown>[];
  return rows.map((r) => ({ value: String(r.nr), label: `${r.nr} · ${isoDay(r.datum)} · ${Number(r.menge)} ${r.einheit}`, raw: true }));
}

const isoDay = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v == null ? '' : String(v).slice(0, 10));
