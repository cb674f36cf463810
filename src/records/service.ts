// The one write path of versioned records. Pages, the API and the imports all write through here; nothing else
// calls the store's write primitives. Every call is one transaction: lock the current row, check the user's
// locations and the record's lock state (the same rules an import applies, below), run the record type's own
// checks (EntityConfig.prepare), write the version, and write the audit entry in that same transaction, so a
// change never commits without its audit and an audit entry never stands for a change that did not commit.
// It takes an actor and a TenantScope, never a request: what it decides does not depend on where it is called.
import type { Knex } from 'knex';
import type { z } from 'zod';
import { audit, auditMany, type AuditEntry } from '../db/audit.js';
import type { TenantScope } from '../db/scope.js';
import type { Change, Meta } from '../db/versioned.js';
import { conflict, fieldErrors, invalid, notFound } from '../errors.js';
import type { Action } from '../permissions/index.js';
import type { EntityConfig } from './entity.js';
import { storeUploads } from './files.js';

/** Who writes: the user (for the version's author and the audit), the tenant and the address (audit). */
export interface Actor {
  user: { id: number };
  mandant: string;
  ip?: string;
}

type Rec = Record<string, unknown>;

/** A problem with a write that names the field it is about (null: the record as a whole). */
export interface WriteProblem {
  field: string | null;
  message: string;
}

/**
 * Whether the scope's locations cover the record as it is (`before`) and as it would be after the write. A
 * record outside them is refused on the field that locates it (its location, else its number).
 */
export function locationProblem(cfg: EntityConfig<Rec>, scope: TenantScope, nr: string, before: (Rec & Meta) | null | undefined, data: Rec): WriteProblem | null {
  if (!cfg.standortOf) return null;
  const inside = (!before || scope.allowsStandort(cfg.standortOf(before))) && scope.allowsStandort(cfg.standortOf({ ...(before ?? {}), ...data, nr } as Rec & Meta));
  return inside ? null : { field: cfg.locatedBy ?? 'nr', message: 'records:errors.standortNotAllowed' };
}

/** Why a stored record may no longer be changed (a completed delivery), or null. */
export function lockProblem(cfg: EntityConfig<Rec>, before: Rec & Meta): WriteProblem | null {
  const reason = cfg.lockedReason?.(before);
  return reason ? { field: null, message: reason } : null;
}

const refusedLocation = (p: WriteProblem) => invalid([{ field: p.field ?? 'nr', message: p.message }]);
const refusedLock = (p: WriteProblem) => conflict('RECORD_LOCKED', p.message);

/** Input without the fields it did not mention, so an update changes only what was sent. */
export const mentioned = <T extends Rec>(data: T): T => Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as T;

/** What an action gets: its transaction, the locked current record, its validated input, and who acts. */
export interface ActionContext<T extends Rec, I> {
  tx: TenantScope;
  record: T & Meta;
  input: I;
  actor: Actor;
  /** Saves fields of the record as a new version (through the record type's checks, like an edit). */
  save(fields: Partial<T> & { status?: string }): Promise<T & Meta>;
}

/** What an action did: the record after it, and what the API answers (default: the record). */
export interface ActionResult<T extends Rec> {
  record: T & Meta;
  /** The API's answer and status (default 200 with the record). */
  data?: unknown;
  status?: number;
  /** What the audit entry records (default: the record before and after). */
  audit?: { before?: unknown; after?: unknown };
  /** i18n key of the page's success message. */
  flash: string;
}

/**
 * A change that is not create/edit/delete (cancel, activate, later split or link), mounted as a resource:
 * `POST /{lang}/{path}/{nr}/{name}` for the page and `POST /api/{resource}/{nr}/{name}` for the API, with its
 * own guard (the area's `right`, default edit), input schema, audit kind (`….{name}`) and version check.
 */
export interface RecordAction<T extends Rec, I = Rec> {
  name: string;
  right?: Action;
  input: z.ZodType<I>;
  /** Runs on a locked record too (an undo that only the lock permits); default: refused like an edit. */
  evenWhenLocked?: boolean;
  /**
   * The detail tab whose own form posts it (e.g. a split with its parts), instead of a button among the
   * record's actions: the page returns to that tab, with the form's errors when the input was refused.
   */
  section?: string;
  /** Whether the detail page offers it for this record (the API refuses it otherwise, 409). */
  offered?(record: T & Meta): boolean;
  /**
   * The page's button for this record: label, hint, variant and the hidden fields it sends. `confirm` (an i18n
   * key, given the record's number as `nr`) makes the page ask first, naming what the action does
   * (src/http/confirm.ts); the API never asks.
   */
  button(record: T & Meta): { label: string; hint?: string; variant: 'primary' | 'secondary' | 'danger'; fields?: Record<string, string>; confirm?: string };
  run(ctx: ActionContext<T, I>): Promise<ActionResult<T>>;
  /** The API's answer when it is not the record with 200 (ActionResult's data and status), for the API description. */
  answer?: { status: number; many?: boolean };
}

export interface RecordService<T extends Rec> {
  create(scope: TenantScope, actor: Actor, input: T & { nr?: string }): Promise<T & Meta>;
  /** Saves changed fields; with `newNr` the record also gets a new number, in the same transaction. */
  update(scope: TenantScope, actor: Actor, nr: string, input: Partial<T>, basedOn?: number, newNr?: string): Promise<T & Meta>;
  remove(scope: TenantScope, actor: Actor, nr: string): Promise<void>;
  act(scope: TenantScope, actor: Actor, nr: string, name: string, rawInput: unknown, basedOn?: number): Promise<ActionResult<T>>;
  /** The record type's declared action of that name, or undefined. */
  action(name: string): RecordAction<T, unknown> | undefined;
  /**
   * Many records in the caller's transaction, as the imports write them (rows already checked against the
   * locked current rows with locationProblem/lockProblem): created, updated, and one audit entry each.
   */
  writeMany(
    tx: TenantScope, actor: Actor,
    batch: { creates: { nr: string; data: T }[]; updates: { nr: string; data: Partial<T>; changes: Change[] }[] },
    opts: { auditKind: string; note: Rec },
  ): Promise<void>;
}

/** The audit kind of a record write: `<path's first segment>.<resource>.<what>`, e.g. `bewegungsdaten.einlieferungen.storno`. */
export const auditKindOf = (cfg: { path: string; resource: string }, what: string) => `${cfg.path.split('/')[0]}.${cfg.resource}.${what}`;

export function recordService<T extends Rec>(cfg: EntityConfig<T>): RecordService<T> {
  const store = cfg.store;
  const rec = cfg as unknown as EntityConfig<Rec>;
  const entry = (actor: Actor, what: string, nr: string, before?: unknown, after?: unknown): AuditEntry => ({
    kind: auditKindOf(cfg, what), mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: nr, before, after, ip: actor.ip,
  });
  const writeAudit = (tx: TenantScope, e: AuditEntry) => audit(tx.knex as Knex, e);

  /** The current record, locked; a number that does not exist or lies outside the user's locations is a 404. */
  async function locked(tx: TenantScope, nr: string): Promise<T & Meta> {
    const before = await store.lock(tx, nr);
    if (!before || (cfg.standortOf && !tx.allowsStandort(cfg.standortOf(before)))) throw notFound();
    return before;
  }

  const checkVersion = (before: Meta, basedOn: number | undefined) => {
    if (basedOn !== undefined && basedOn !== before.version) throw conflict('VERSION_CONFLICT', 'records:errors.versionConflict');
  };

  /** The fields to save: what was sent over what is stored, through the record type's checks. */
  async function prepared(tx: TenantScope, before: T & Meta, input: Partial<T> & { status?: string }): Promise<Partial<T>> {
    if (!cfg.prepare) return mentioned(input as T);
    const stored = Object.fromEntries(Object.keys(store.spec.fields).map((f) => [f, before[f]])) as T;
    const checked = mentioned(await cfg.prepare(tx, { ...stored, ...mentioned(input as T) }, before));
    // The store's own aktiv/inaktiv status is no field of the record type: it passes its checks untouched.
    return input.status !== undefined && !('status' in store.spec.fields) ? { ...checked, status: input.status } : checked;
  }

  async function save(tx: TenantScope, actor: Actor, before: T & Meta, input: Partial<T> & { status?: string }): Promise<T & Meta> {
    const fields = await storeUploads(tx, await prepared(tx, before, input), actor.user.id);
    const where = locationProblem(rec, tx, before.nr, before, fields);
    if (where) throw refusedLocation(where);
    const saved = await store.write(tx, before, fields, actor.user.id);
    if (saved.version !== before.version) await cfg.afterSave?.(tx, saved, before);
    return saved;
  }

  const actions = new Map((cfg.actions ?? []).map((a) => [a.name, a]));

  return {
    action: (name) => actions.get(name) as RecordAction<T, unknown> | undefined,

    create(scope, actor, input) {
      const { nr: typed, ...rest } = input;
      return scope.transaction(async (tx) => {
        const fields = cfg.prepare ? await cfg.prepare(tx, { ...(rest as unknown as T), ...(cfg.onCreate ?? {}) }, null) : ({ ...rest, ...(cfg.onCreate ?? {}) } as unknown as T);
        const nr = typed ?? (await cfg.generateNr!(tx));
        const where = locationProblem(rec, tx, nr, null, fields);
        if (where) throw refusedLocation(where);
        const record = await store.insert(tx, nr, await storeUploads(tx, fields, actor.user.id), actor.user.id);
        await cfg.afterSave?.(tx, record, null);
        await cfg.afterCreate?.(tx, record, actor);
        await writeAudit(tx, entry(actor, 'create', nr, undefined, record));
        return record;
      });
    },

    update(scope, actor, nr, input, basedOn, newNr) {
      return scope.transaction(async (tx) => {
        const before = await locked(tx, nr);
        checkVersion(before, basedOn);
        const lock = lockProblem(rec, before);
        if (lock) throw refusedLock(lock);
        let saved = await save(tx, actor, before, input);
        if (saved.version !== before.version) await writeAudit(tx, entry(actor, 'update', nr, before, saved));
        if (newNr !== undefined && newNr !== nr) {
          saved = await store.writeNr(tx, saved, newNr, actor.user.id);
          await writeAudit(tx, entry(actor, 'renumber', newNr, { nr }, { nr: newNr }));
        }
        return saved;
      });
    },

    remove(scope, actor, nr) {
      return scope.transaction(async (tx) => {
        const before = await locked(tx, nr);
        if (!cfg.removable) throw notFound();
        if (await cfg.removable.referenced(tx, nr)) throw conflict('IN_USE', 'records:errors.inUse');
        await store.delete(tx, nr);
        await writeAudit(tx, entry(actor, 'delete', nr, before));
      });
    },

    act(scope, actor, nr, name, rawInput, basedOn) {
      const action = actions.get(name);
      if (!action) throw notFound();
      const parsed = action.input.safeParse(rawInput ?? {});
      if (!parsed.success) {
        throw invalid(fieldErrors(parsed.error));
      }
      return scope.transaction(async (tx) => {
        const record = await locked(tx, nr);
        checkVersion(record, basedOn);
        if (!action.evenWhenLocked) {
          const lock = lockProblem(rec, record);
          if (lock) throw refusedLock(lock);
        }
        if (action.offered && !action.offered(record)) throw conflict('ACTION_NOT_OFFERED', 'records:errors.actionNotOffered');
        const result = await action.run({ tx, record, input: parsed.data, actor, save: (fields) => save(tx, actor, record, fields) });
        // Audited when the record changed, or when the action says what it did besides (records it wrote).
        const changed = result.record.version !== record.version || result.record.nr !== record.nr;
        if (changed || result.audit) {
          await writeAudit(tx, entry(actor, name, result.record.nr, result.audit ? result.audit.before : record, result.audit ? result.audit.after : result.record));
        }
        return result;
      });
    },

    async writeMany(tx, actor, { creates, updates }, { auditKind, note }) {
      await store.createMany(tx, creates, actor.user.id);
      await store.updateMany(tx, updates, actor.user.id);
      const base = { mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, ip: actor.ip };
      await auditMany(tx.knex as Knex, [
        ...creates.map((c) => ({ ...base, kind: `${auditKind}.create`, entityId: c.nr, after: { ...c.data, ...note } })),
        ...updates.map((u) => ({
          ...base, kind: `${auditKind}.update`, entityId: u.nr,
          before: Object.fromEntries(u.changes.map((c) => [c.field, c.before])),
          after: { ...Object.fromEntries(u.changes.map((c) => [c.field, c.after])), ...note },
        })),
      ]);
    },
  };
}
