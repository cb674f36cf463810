// Nachrichten: what a user reads and marks read, what an administrator writes and deletes. Reading is for every
// member of the tenant; writing for the tenant's administrators (for their tenant) and system administrators
// (for this tenant or all active tenants). Each change and its audit entries are one transaction.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { audit } from '../../db/audit.js';
import { applyTenantSettings } from '../../db/rls.js';
import { TenantScope } from '../../db/scope.js';
import { HttpError, notFound } from '../../http/errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { isAdmin, isSystemAdmin } from '../../permissions/index.js';
import * as repo from './repo.js';
import type { NachrichtInput } from './schema.js';

export type { Nachricht } from './repo.js';
export const AUDIT_ENTITY = 'nachricht';
export const AUDIT = { anlegen: 'benutzer.nachricht.create', loeschen: 'benutzer.nachricht.delete' } as const;

/** May the actor write and delete messages of the current tenant? */
export const darfSchreiben = (a: Pick<RequestActor, 'principal'>) => isAdmin(a.principal);
/** May the actor send a message to every tenant? */
export const darfAnAlle = (a: Pick<RequestActor, 'principal'>) => isSystemAdmin(a.principal);

function requireSchreiben(a: RequestActor) {
  if (!darfSchreiben(a)) throw new HttpError(403, 'FORBIDDEN', 'nachrichten:errors.nurAdmins');
}

/** The messages valid today, newest first, with the user's unread flag. */
export function aktuelle(scope: TenantScope, a: RequestActor, heute: string) {
  return repo.aktuelle(scope, a.user.id, heute);
}

/** All messages of the tenant (administrators). */
export function alle(scope: TenantScope, a: RequestActor) {
  requireSchreiben(a);
  return repo.alle(scope);
}

/** One message of the tenant for an administrator (what a deletion's confirmation names), or null. */
export function eine(scope: TenantScope, a: RequestActor, id: number) {
  requireSchreiben(a);
  return repo.eine(scope, id);
}

/**
 * Writes a message: to the current tenant, or (system administrators, `an: 'alle'`) one row per active tenant,
 * tied by one group id, all in one transaction with one audit entry per tenant. Returns the current tenant's row.
 */
export async function anlegen(scope: TenantScope, a: RequestActor, input: NachrichtInput): Promise<repo.Nachricht> {
  requireSchreiben(a);
  if (input.an === 'alle' && !darfAnAlle(a)) throw new HttpError(403, 'FORBIDDEN', 'nachrichten:errors.nurSystemAdmins');
  return scope.transaction(async (tx) => {
    const gruppe = input.an === 'alle' ? randomUUID() : null;
    const neu = { titel: input.titel, text: input.text, gueltigVon: input.gueltigVon!, gueltigBis: input.gueltigBis, gruppe, erstelltVon: a.user.id };
    const schreibe = async (t: TenantScope) => {
      const id = await repo.anlegen(t, neu);
      await audit(t.knex as Knex, {
        kind: AUDIT.anlegen, mandant: t.mandant, benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: id, ip: a.ip,
        after: { titel: neu.titel, gueltigVon: neu.gueltigVon, gueltigBis: neu.gueltigBis, gruppe },
      });
      return id;
    };
    const id = await schreibe(tx);
    if (gruppe) {
      const trx = tx.knex as Knex.Transaction;
      // The same transaction, each tenant's row written with that tenant set (row-level security), then back.
      for (const m of await repo.aktiveMandanten(tx)) {
        if (m === a.mandant) continue;
        await applyTenantSettings(trx, m);
        await schreibe(new TenantScope(trx, m));
      }
      await applyTenantSettings(trx, a.mandant);
    }
    const row = await repo.eine(tx, id);
    return row!;
  });
}

/** Deletes a message of the current tenant (its read marks go with it); another tenant's id is unknown here. */
export async function loeschen(scope: TenantScope, a: RequestActor, id: number): Promise<void> {
  requireSchreiben(a);
  await scope.transaction(async (tx) => {
    const vorher = await repo.eine(tx, id);
    if (!vorher) throw notFound('nachrichten:errors.notFound');
    await repo.loeschen(tx, id);
    await audit(tx.knex as Knex, {
      kind: AUDIT.loeschen, mandant: a.mandant, benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: id, ip: a.ip,
      before: { titel: vorher.titel, gueltigVon: vorher.gueltigVon, gueltigBis: vorher.gueltigBis, anAlle: vorher.anAlle },
    });
  });
}

/** Marks one message read; it must be one the user sees today (else 404). Marking it again changes nothing. */
export async function alsGelesen(scope: TenantScope, a: RequestActor, id: number, heute: string): Promise<void> {
  await scope.transaction(async (tx) => {
    if (!(await repo.eine(tx, id, heute))) throw notFound('nachrichten:errors.notFound');
    await repo.gelesen(tx, a.user.id, [id]);
  });
}

/** Marks every message valid today read. Returns how many were unread. */
export async function alleAlsGelesen(scope: TenantScope, a: RequestActor, heute: string): Promise<number> {
  return scope.transaction(async (tx) => {
    const offen = (await repo.aktuelle(tx, a.user.id, heute)).filter((n) => n.ungelesen).map((n) => n.id);
    return repo.gelesen(tx, a.user.id, offen);
  });
}
