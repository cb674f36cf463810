// JSON API of API keys (api-contract.md, last bullet), for tenant administrators:
//   GET    /api/api-keys        the tenant's keys, live and revoked (never a secret or its hash)
//   POST   /api/api-keys        {name, rollen:[…], standorte?:[…]} → 201 {"data":{id, name, key}}, the key shown this once
//   DELETE /api/api-keys/{id}   revokes it: the next call with it is a 401
// Another tenant's key id is unknown here (404): every read goes through the tenant scope. A key itself is never
// an administrator, so keys cannot manage keys.
import { Router, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { z } from 'zod';
import { documentApis } from '../api-docs/registry.js';
import { ApiKeyCreateBody, ApiKeyCreated, ApiKeyId, ApiKeyList, ApiKeyRevoked } from './schema.js';
import { ApiKeyService } from './service.js';

documentApis([
  { method: 'get', path: '/api-keys', tag: 'api-keys', summary: 'apiKeys.list', ok: { 200: ApiKeyList.strict() } },
  { method: 'post', path: '/api-keys', tag: 'api-keys', summary: 'apiKeys.create', body: ApiKeyCreateBody, ok: { 201: ApiKeyCreated.strict() } },
  { method: 'delete', path: '/api-keys/:id', tag: 'api-keys', summary: 'apiKeys.revoke', params: z.object({ id: z.string().regex(/^[1-9]\d{0,15}$/) }), ok: { 200: ApiKeyRevoked.strict() } },
]);

export function apiKeysApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const service = new ApiKeyService(knex, clock);
  const scope = (res: Response) => tenantScope(knex, res);
  const admin = requireApiPermission('admin', 'view', 'api-keys:errors.nurAdmins');

  router.get('/api-keys', admin, async (_req, res) => {
    const data = await service.list(scope(res));
    res.json({ data, total: data.length, page: 1, pageSize: Math.max(data.length, 1) });
  });

  router.post('/api-keys', admin, async (req, res) => {
    const input = parseOr400(ApiKeyCreateBody, req.body);
    const created = await service.create(scope(res), actorOf(req, res), input);
    // The secret must not linger in caches or proxies, nor in the answers kept for an Idempotency-Key: a retry
    // learns that the key was made (id, name), never its secret.
    res.set('Cache-Control', 'no-store');
    res.locals.replayAs = { data: { ...created, key: null } };
    res.status(201).json({ data: created });
  });

  router.delete('/api-keys/:id', admin, async (req, res) => {
    const id = idOr404(ApiKeyId, req.params.id, 'api-keys:errors.notFound');
    await service.revoke(scope(res), actorOf(req, res), id);
    res.json({ success: true });
  });

  return router;
}
