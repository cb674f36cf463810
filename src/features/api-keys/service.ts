// API keys of a tenant (issue 19 point 3): a tenant administrator creates, lists and revokes them (page and API
// call these same commands); an API call with `Authorization: Bearer npk_…` is resolved here to the key's
// principal: its tenant only, its role types, its locations. From there can() decides everything as it does
// for a person. What a key may never do (administration, a person's account) follows from that principal: it
// is never an administrator, and the account routes refuse keys (src/http/api.ts).
import type { Knex } from 'knex';
import { DEFAULT_SETTINGS, type CurrentUser } from '../../auth/current-user.js';
import type { Clock } from '../../clock.js';
import { audit } from '../../db/audit.js';
import { TenantScope } from '../../db/scope.js';
import { invalid, notFound } from '../../errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { hashKey, newKey, parseKey } from './keys.js';
import * as repo from './repo.js';
import type { ApiKeyCreateInput, ApiKeyListItem } from './schema.js';

export const AUDIT = { create: 'admin.api_key.create', revoke: 'admin.api_key.revoke' } as const;
export const AUDIT_ENTITY = 'api-key';

/** A request authenticated by a key: who acts (the key as a user of one tenant), where, and which key. */
export interface KeyPrincipal {
  user: CurrentUser;
  mandant: string;
  key: { id: number; name: string };
}

export const toListItem = (r: repo.ApiKeyRow): ApiKeyListItem => ({
  id: r.id,
  name: r.name,
  praefix: r.praefix,
  rollen: r.rollen,
  standorte: r.standorte,
  erstelltAm: new Date(r.erstellt_am).toISOString(),
  erstelltVon: r.erstellt_von_login,
  zuletztBenutztAm: r.zuletzt_benutzt_am ? new Date(r.zuletzt_benutzt_am).toISOString() : null,
  widerrufenAm: r.widerrufen_am ? new Date(r.widerrufen_am).toISOString() : null,
  status: r.widerrufen_am ? 'widerrufen' : 'aktiv',
});

export class ApiKeyService {
  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
  ) {}

  private now = () => new Date(this.clock.now());

  async list(scope: TenantScope): Promise<ApiKeyListItem[]> {
    return (await repo.list(scope)).map(toListItem);
  }

  async get(scope: TenantScope, id: number): Promise<ApiKeyListItem> {
    const row = await repo.find(scope, id);
    if (!row) throw notFound('api-keys:errors.notFound');
    return toListItem(row);
  }

  /** A new key; the only time its secret exists outside the caller's hands is this answer. */
  async create(scope: TenantScope, actor: RequestActor, input: ApiKeyCreateInput): Promise<{ id: number; name: string; key: string }> {
    return scope.transaction(async (tx) => {
      const unknown = await repo.unknownStandorte(tx, input.standorte ?? []);
      if (unknown.length) throw invalid([{ field: 'standorte', message: 'api-keys:errors.standortUnbekannt', params: { nr: unknown.join(', ') } }]);
      if (await repo.nameTaken(tx, input.name)) throw invalid([{ field: 'name', message: 'api-keys:errors.nameVergeben' }]);
      const made = newKey(actor.mandant);
      const id = await repo.insert(tx, { name: input.name, praefix: made.praefix, hash: made.hash, rollen: input.rollen, standorte: input.standorte, erstelltVon: actor.user.id });
      await audit(tx.knex as Knex, {
        kind: AUDIT.create, mandant: actor.mandant, benutzerId: actor.user.id, entity: AUDIT_ENTITY, entityId: id, ip: actor.ip,
        after: { name: input.name, praefix: made.praefix, rollen: input.rollen, standorte: input.standorte },
      });
      return { id, name: input.name, key: made.key };
    });
  }

  /** Revokes a key at once (the next call with it is a 401). Revoking a revoked key changes nothing. */
  async revoke(scope: TenantScope, actor: RequestActor, id: number): Promise<ApiKeyListItem> {
    return scope.transaction(async (tx) => {
      const before = await repo.find(tx, id);
      if (!before) throw notFound('api-keys:errors.notFound');
      if (await repo.revoke(tx, id, actor.user.id, this.now())) {
        await audit(tx.knex as Knex, {
          kind: AUDIT.revoke, mandant: actor.mandant, benutzerId: actor.user.id, entity: AUDIT_ENTITY, entityId: id, ip: actor.ip,
          before: { name: before.name, praefix: before.praefix },
        });
      }
      return toListItem((await repo.find(tx, id))!);
    });
  }

  /**
   * The principal of a key, or null: malformed, unknown, revoked, its tenant deactivated, or its creator
   * deactivated or no longer an administrator of the tenant (a key acts on the authority of the administrator
   * who made it: when that person leaves or loses the right, the systems they connected stop until an
   * administrator makes a new key).
   */
  async authenticate(key: string): Promise<KeyPrincipal | null> {
    const parsed = parseKey(key);
    if (!parsed) return null;
    const scope = new TenantScope(this.knex, parsed.mandant);
    const row = await repo.byHash(scope, hashKey(key));
    if (!row || row.mandant_status !== 'active' || row.benutzer_id == null || row.benutzer_status !== 'active') return null;
    if (!row.verwaltet) return null;
    const mandant = parsed.mandant;
    const rollen: CurrentUser['rollen'] = row.rollen.flatMap((typ) =>
      row.standorte ? row.standorte.map((standortNr: string | null) => ({ mandant, typ, standortNr })) : [{ mandant, typ, standortNr: null }],
    );
    const user: CurrentUser = {
      id: row.benutzer_id,
      login: row.login ?? '',
      email: '',
      vorname: '',
      nachname: row.name,
      status: 'active',
      adminKz: false,
      supportKz: false,
      mfaEnabled: false,
      mandanten: [{ mandant, adminKz: false }],
      rollen,
      standorte: [],
      settings: DEFAULT_SETTINGS,
      apiKey: { id: row.id, name: row.name },
    };
    if (!row.zuletzt_benutzt_am || this.clock.now() - new Date(row.zuletzt_benutzt_am).getTime() > 60_000) {
      await repo.touch(scope, row.id, this.now());
    }
    return { user, mandant, key: { id: row.id, name: row.name } };
  }

  /** Seeds: a key of the demo tenant (see src/seeds). */
  static async seed(scope: TenantScope, k: Parameters<typeof repo.insert>[1]): Promise<number> {
    return repo.insert(scope, k);
  }
}

