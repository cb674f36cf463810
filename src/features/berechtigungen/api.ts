// The permission-management API: GET and PUT /api/berechtigungen/{userId}, for administrators of the tenant
// named by X-Mandant (requireApiUser and requireTenant run before this router, see app.ts).
import { Router, type Request } from 'express';
import type { Knex } from 'knex';
import { requireApiPermission } from '../../http/api.js';
import { tenantScope } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import { PermissionsBody, UserId } from './schema.js';
import { z } from 'zod';
import { documentApis, Envelope } from '../api-docs/registry.js';

const Permissions = Envelope(z.object({ userId: z.number().int(), permissions: PermissionsBody.shape.permissions }).strict());
const params = z.object({ userId: z.string().regex(/^[1-9]\d{0,8}$/) });

documentApis([
  { method: 'get', path: '/berechtigungen/:userId', tag: 'berechtigungen', summary: 'berechtigungen.read', params, ok: { 200: Permissions }, errors: [409] },
  { method: 'put', path: '/berechtigungen/:userId', tag: 'berechtigungen', summary: 'berechtigungen.write', params, body: PermissionsBody, ok: { 200: Permissions } },
]);
import { getPermissions, savePermissions, userNotFound } from './service.js';

/** A path id that is not a number names no user: 404, like an unknown one. */
function userIdOf(req: Request): number {
  const parsed = UserId.safeParse(req.params.userId);
  if (!parsed.success) throw userNotFound();
  return parsed.data;
}

export function berechtigungenApi(knex: Knex): Router {
  const router = Router();

  router.get('/berechtigungen/:userId', requireApiPermission('admin'), async (req, res) => {
    const data = await getPermissions(tenantScope(knex, res), userIdOf(req));
    res.json({ success: true, data });
  });

  router.put('/berechtigungen/:userId', requireApiPermission('admin'), async (req, res) => {
    const userId = userIdOf(req);
    const body = parseOr400(PermissionsBody, req.body);
    const data = await savePermissions(tenantScope(knex, res), { id: req.user!.id, ip: req.ip }, userId, body.permissions);
    res.json({ success: true, data });
  });

  return router;
}
