// The master-data import: locations, products or partners from a file whose columns are named by the fields'
// labels (src/import/labelled.ts). Preview, staging and commit are the shared import machinery's
// (src/import/engine.ts); this only says which entities there are (STAMMDATEN_ENTITIES) and who may import them.
import type { TenantScope } from '../../db/scope.js';
import { HttpError } from '../../http/errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { commit as commitImport, findImport as findStaged, preview as previewImport, type Entity, type ImportPlan } from '../../import/engine.js';
import { labelledHeader } from '../../import/labelled.js';
import type { Counts, Translate } from '../../import/schema.js';
import type { Staging } from '../../import/staging.js';
import type { UploadedFile } from '../../import/upload.js';
import { can, type Principal } from '../../permissions/index.js';
import { STAMMDATEN_ENTITIES } from '../stammdaten/registry.js';

export type { Entity };
export { PREVIEW_ROWS } from '../../import/engine.js';

/** The entities the user may import: those whose area they may edit. */
export function permittedEntities(principal: Principal): Entity[] {
  return STAMMDATEN_ENTITIES.filter((cfg) => can(principal, 'edit', cfg.area));
}

/** The entity of a URL or form: unknown → 404, not editable by the user → 403. */
export function entityFor(resource: unknown, principal: Principal): Entity {
  const cfg = STAMMDATEN_ENTITIES.find((e) => e.resource === resource);
  if (!cfg) throw new HttpError(404, 'NOT_FOUND', 'import:errors.unknownEntity');
  if (!can(principal, 'edit', cfg.area)) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  return cfg;
}

const planOf = (cfg: Entity): ImportPlan => ({
  entity: cfg.resource, cfg, auditKind: 'stammdaten.import', recordAuditKind: `stammdaten.${cfg.resource}`,
});

/**
 * Reads, validates and classifies the file and stages its valid rows; nothing is written to the entity.
 * `t` speaks the user's language (messages), `translators` every language (accepted headers and labels).
 */
export function preview(scope: TenantScope, actor: RequestActor, cfg: Entity, file: UploadedFile, t: Translate, translators: Translate[]): Promise<Staging> {
  return previewImport(scope, actor, planOf(cfg), file, labelledHeader(cfg, t, translators));
}

/** The user's staged master-data import, or 404 (unknown, someone else's, or older than an hour). */
export const findImport = (scope: TenantScope, actor: RequestActor, token: string): Promise<Staging> =>
  findStaged(scope, actor, token, STAMMDATEN_ENTITIES.map((e) => e.resource));

/** Writes every staged row in one transaction (see the engine), or nothing. */
export const commit = (scope: TenantScope, actor: RequestActor, cfg: Entity, token: string): Promise<Counts> => commitImport(scope, actor, planOf(cfg), token);
