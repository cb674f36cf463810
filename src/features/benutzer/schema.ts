// Inputs of user administration, validated at the edge (HTML form and JSON alike).
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../../auth/password-policy.js';

const text = (max: number) => z.string().trim().max(max);
const checkbox = z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('1'), z.literal('')]).transform((v) => v === true || v === 'on' || v === 'true' || v === '1');

export const UserInput = z.object({
  login: text(100).min(1).regex(/^[^\s@]+$/, 'login').transform((v) => v.toUpperCase()),
  vorname: text(100).min(1),
  nachname: text(100).min(1),
  email: text(254).min(3).email(),
  /** Tenant administrator of the current tenant. */
  tenantAdmin: checkbox.optional().default(false),
  /** System administrator and support: only a system administrator may set these. */
  adminKz: checkbox.optional().default(false),
  supportKz: checkbox.optional().default(false),
  /** Further tenants (system administrator only); the current tenant is always included. */
  mandanten: z.union([z.array(text(32)), text(32)]).optional().transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v]).map((m) => m.toUpperCase()).filter(Boolean)),
});
export type UserInput = z.infer<typeof UserInput>;

export const NewUserInput = UserInput.extend({ password: z.string().min(1).max(PASSWORD_MAX_LENGTH) });

export const StatusInput = z.object({ status: z.enum(['active', 'inactive']) }).strict();
export const ResetPasswordInput = z.object({ newPassword: z.string().max(PASSWORD_MAX_LENGTH + 1) }).strict();
export const UserId = z.coerce.number().int().min(1).max(2_147_483_647);
