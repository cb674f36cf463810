// Inputs of the account API and pages, validated at the edge. Field errors name the field.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../../auth/password-policy.js';
import { DEFAULT_PAGE_SIZE, isOfferedPageSize, PAGE_SIZES } from '../../records/list/page-size.js';

const login = z.string().trim().min(1).max(254);
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const jwt = z.string().min(10).max(4096);

export const LoginBody = z.object({ login, password }).strict();
export const MfaVerifyBody = z.object({ token: jwt, code: z.string().max(20) }).strict();
export const TokenBody = z.object({ token: jwt }).strict();
/** An id_token of the identity provider: up to 8 KB are read (the verifier refuses larger ones with 413). */
export const SsoTokenBody = z.object({ token: z.string().min(10).max(64 * 1024) }).strict();
export const PasswordBody = z.object({ password }).strict();
export const ChangePasswordBody = z
  .object({
    currentPassword: password,
    newPassword: z.string().max(PASSWORD_MAX_LENGTH + 1),
    confirmPassword: z.string().max(PASSWORD_MAX_LENGTH + 1).optional(),
  })
  .strict();

export const TIMEZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York'] as const;
export const DATE_FORMATS = ['dd.MM.yyyy', 'yyyy-MM-dd', 'MM/dd/yyyy'] as const;
export { PAGE_SIZES };

/** Settings type 1 (the settings screen); unknown keys are dropped. */
export const UserSettingsSchema = z.object({
  language: z.enum(['de', 'en']).default('de'),
  itemsPerPage: z.coerce.number().int().refine(isOfferedPageSize).default(DEFAULT_PAGE_SIZE),
  emailNotifications: z.boolean().default(true),
  browserNotifications: z.boolean().default(true),
  compactMode: z.boolean().default(false),
  timezone: z.enum(TIMEZONES).default('Europe/Berlin'),
  dateFormat: z.enum(DATE_FORMATS).default('dd.MM.yyyy'),
  theme: z.enum(['light', 'dark']).default('light'),
});

export const SettingsTyp = z.coerce.number().int().min(1).max(99);
export const PutSettingsBody = z.object({ typ: z.number().int().min(1).max(99), data: z.string().max(10_000) }).strict();
