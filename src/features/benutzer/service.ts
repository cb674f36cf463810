// The rules of user administration. A system administrator manages every user; a tenant administrator only
// members of their current tenant, and never system administrators or support staff. Nobody deactivates
// themself, and a tenant always keeps an active tenant administrator. Every change is audited.
import type { Knex } from 'knex';
import type { CurrentUser } from '../../auth/current-user.js';
import { passwordProblems } from '../../auth/password-policy.js';
import { hashPassword } from '../../auth/passwords.js';
import type { AccountService } from '../../auth/services.js';
import { audit } from '../../db/audit.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import { isAdmin, isSystemAdmin, mayManageUser, type Principal } from '../../permissions/index.js';
import * as repo from './repo.js';
import type { UserInput } from './schema.js';

export interface Actor {
  user: CurrentUser;
  mandant: string;
  principal: Principal;
  ip?: string;
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'errors.userNotFound');
const actsAsSystemAdmin = (a: Actor) => isSystemAdmin(a.principal);

/** Whose users the actor sees: all (system administrator) or the current tenant's. */
const visibleTenant = (a: Actor) => (actsAsSystemAdmin(a) ? null : a.mandant);

function snapshot(u: repo.UserRow) {
  const { id, login, vorname, nachname, email, status, adminKz, supportKz, mfaEnabled, mandanten } = u;
  return { id, login, vorname, nachname, email, status, adminKz, supportKz, mfaEnabled, mandanten };
}

export class BenutzerService {
  constructor(private readonly accounts: AccountService) {}

  private get knex(): Knex {
    return this.accounts.knex;
  }

  private requireAdmin(a: Actor) {
    if (!isAdmin(a.principal)) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  }

  /** Where the actor's user list reads (repo.userList): every user, or the members of the current tenant. */
  listSource(a: Actor): repo.UserListSource {
    this.requireAdmin(a);
    return repo.userListSource(this.knex, visibleTenant(a));
  }

  async get(a: Actor, id: number): Promise<repo.UserRow> {
    this.requireAdmin(a);
    return (await repo.findUser(this.knex, id, visibleTenant(a))) ?? Promise.reject(notFound());
  }

  /** May the actor change this user? Tenant administrators never touch system administrators or support. */
  private async manageable(a: Actor, id: number): Promise<repo.UserRow> {
    const target = await this.get(a, id);
    if (!mayManageUser(a.principal, target)) throw new HttpError(403, 'FORBIDDEN', 'benutzer:errors.protectedUser');
    return target;
  }

  private async validate(a: Actor, input: UserInput, exceptId?: number): Promise<string[]> {
    const errors: FieldError[] = [];
    if (!actsAsSystemAdmin(a) && (input.adminKz || input.supportKz)) {
      throw new HttpError(403, 'FORBIDDEN', 'benutzer:errors.onlySystemAdmin');
    }
    if (input.adminKz && input.supportKz) errors.push({ field: 'supportKz', message: 'benutzer:errors.adminAndSupport' });
    const taken = await repo.loginOrEmailTaken(this.knex, input.login, input.email, exceptId);
    if (taken?.login === input.login) errors.push({ field: 'login', message: 'benutzer:errors.loginTaken' });
    else if (taken) errors.push({ field: 'email', message: 'benutzer:errors.emailTaken' });
    // Tenants: the current one always; others only by a system administrator, and only existing ones.
    const wanted = actsAsSystemAdmin(a) ? [...new Set([a.mandant, ...input.mandanten])] : [a.mandant];
    const existing = await repo.existingTenants(this.knex, wanted);
    if (existing.length !== wanted.length) errors.push({ field: 'mandanten', message: 'benutzer:errors.unknownTenant' });
    if (errors.length) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', errors);
    return wanted;
  }

  async create(a: Actor, input: UserInput & { password: string }): Promise<repo.UserRow> {
    this.requireAdmin(a);
    const tenants = await this.validate(a, input);
    const problems = passwordProblems(input.password);
    if (problems.length) {
      throw new HttpError(400, 'PASSWORD_RULES', 'account:errors.passwordRules', problems.map((p) => ({ field: 'password', message: `account:password.rules.${p}` })));
    }
    const hash = await hashPassword(input.password);
    const id = await this.knex.transaction(async (trx) => {
      const [{ id }] = await trx('benutzer')
        .insert({
          login: input.login, vorname: input.vorname, nachname: input.nachname, email: input.email, password_hash: hash,
          admin_kz: input.adminKz, support_kz: input.supportKz, status: 'active',
        })
        .returning('id');
      await trx('benutzer_mandanten').insert(
        tenants.map((m) => ({ mandant: m, benutzer_id: id, admin_kz: m === a.mandant ? input.tenantAdmin : false })),
      );
      return id as number;
    });
    const created = (await repo.findUser(this.knex, id, null))!;
    await audit(this.knex, { kind: 'admin.benutzer.create', mandant: a.mandant, benutzerId: a.user.id, entity: 'benutzer', entityId: id, after: snapshot(created), ip: a.ip });
    return created;
  }

  async update(a: Actor, id: number, input: UserInput): Promise<repo.UserRow> {
    this.requireAdmin(a);
    const before = await this.manageable(a, id);
    const tenants = await this.validate(a, input, id);
    const wasTenantAdmin = before.mandanten.some((m) => m.mandant === a.mandant && m.adminKz);
    if (wasTenantAdmin && !input.tenantAdmin) await this.keepsAnAdmin(a.mandant, id);
    if (id === a.user.id && before.adminKz && !input.adminKz) throw new HttpError(409, 'CONFLICT', 'benutzer:errors.ownAdminFlag');
    await this.knex.transaction(async (trx) => {
      await trx('benutzer').where({ id }).update({
        login: input.login, vorname: input.vorname, nachname: input.nachname, email: input.email,
        admin_kz: actsAsSystemAdmin(a) ? input.adminKz : before.adminKz,
        support_kz: actsAsSystemAdmin(a) ? input.supportKz : before.supportKz,
        updated_at: trx.fn.now(),
      });
      await trx('benutzer_mandanten').where({ benutzer_id: id, mandant: a.mandant }).update({ admin_kz: input.tenantAdmin });
      if (actsAsSystemAdmin(a)) {
        // The system administrator edits the whole membership list.
        await trx('benutzer_mandanten').where({ benutzer_id: id }).whereNotIn('mandant', tenants).delete();
        const have = new Set(before.mandanten.map((m) => m.mandant));
        const add = tenants.filter((m) => !have.has(m));
        if (add.length) await trx('benutzer_mandanten').insert(add.map((m) => ({ mandant: m, benutzer_id: id, admin_kz: m === a.mandant ? input.tenantAdmin : false })));
      }
    });
    const after = (await repo.findUser(this.knex, id, null))!;
    await audit(this.knex, { kind: 'admin.benutzer.update', mandant: a.mandant, benutzerId: a.user.id, entity: 'benutzer', entityId: id, before: snapshot(before), after: snapshot(after), ip: a.ip });
    return after;
  }

  private async keepsAnAdmin(mandant: string, leavingId: number) {
    const admins = await repo.activeTenantAdmins(this.knex, mandant);
    if (admins.filter((x) => x !== leavingId).length === 0) throw new HttpError(409, 'LAST_ADMIN', 'benutzer:errors.lastAdmin');
  }

  /** Activate or deactivate; deactivating ends the user's sessions at once. */
  async setStatus(a: Actor, id: number, status: 'active' | 'inactive'): Promise<repo.UserRow> {
    this.requireAdmin(a);
    const before = await this.manageable(a, id);
    if (status === 'inactive') {
      if (id === a.user.id) throw new HttpError(409, 'CONFLICT', 'benutzer:errors.deactivateSelf');
      for (const m of before.mandanten.filter((x) => x.adminKz)) await this.keepsAnAdmin(m.mandant, id);
    }
    await this.knex.transaction(async (trx) => {
      await trx('benutzer').where({ id }).update({ status, updated_at: trx.fn.now() });
      if (status === 'inactive') await trx('sessions').where({ benutzer_id: id }).delete();
    });
    await audit(this.knex, { kind: `admin.benutzer.${status === 'active' ? 'activate' : 'deactivate'}`, mandant: a.mandant, benutzerId: a.user.id, entity: 'benutzer', entityId: id, before: { status: before.status }, after: { status }, ip: a.ip });
    return { ...before, status };
  }

  /** Sets a new password for another user (spec section 8's texts); their sessions end. */
  async resetPassword(a: Actor, id: number, newPassword: string): Promise<void> {
    if (!isAdmin(a.principal)) throw new HttpError(403, 'FORBIDDEN', 'errors.noPasswordReset');
    const target = await repo.findUser(this.knex, id, visibleTenant(a));
    if (!target) throw notFound();
    if (!mayManageUser(a.principal, target)) throw new HttpError(403, 'FORBIDDEN', 'errors.noPasswordReset');
    const problems = passwordProblems(newPassword);
    if (problems.length) {
      throw new HttpError(400, 'PASSWORD_RULES', 'account:errors.passwordRules', problems.map((p) => ({ field: 'newPassword', message: `account:password.rules.${p}` })));
    }
    await this.accounts.setPassword(id, newPassword);
    await audit(this.knex, { kind: 'admin.benutzer.password.reset', mandant: a.mandant, benutzerId: a.user.id, entity: 'benutzer', entityId: id, ip: a.ip });
  }

  /** Resets another user's second factor (administrators), or one's own (anyone signed in with a full session). */
  async resetMfa(a: Actor, id: number): Promise<void> {
    const self = id === a.user.id;
    if (!self && !isAdmin(a.principal)) throw new HttpError(403, 'FORBIDDEN', 'errors.noMfaReset');
    const target = await repo.findUser(this.knex, id, self ? null : visibleTenant(a));
    if (!target) throw new HttpError(404, 'NOT_FOUND', self ? 'errors.userNotFoundSelf' : 'errors.userNotFound');
    if (!self && !mayManageUser(a.principal, target)) throw new HttpError(403, 'FORBIDDEN', 'errors.noMfaReset');
    await this.accounts.disableMfa(id, a.user.id, a.ip ?? 'unknown');
    await audit(this.knex, { kind: 'admin.benutzer.mfa.reset', mandant: a.mandant, benutzerId: a.user.id, entity: 'benutzer', entityId: id, ip: a.ip });
  }
}
