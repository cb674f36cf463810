// Environment, validated once. Everything else receives a Config object instead of reading process.env.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DIR: z.string().default('./data/pglite'),
  SESSION_SECRET: z.string().min(32).optional(),
  NODE_ENV: z.enum(['production', 'test', 'development']).default('production'),
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SSO_ISSUER: z.string().url().optional(),
  SSO_AUDIENCE: z.string().min(1).optional(),
  SSO_JWKS_URL: z.string().url().optional(),
  SSO_PUBLIC_KEY: z.string().min(1).optional(),
  SSO_AUTHORIZE_URL: z.string().url().optional(),
  SSO_CLIENT_ID: z.string().min(1).optional(),
  BENCH_COUNT_QUERIES: z.enum(['0', '1']).optional(),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).optional(),
});

/** The identity provider whose OIDC id_tokens sign users in; null when SSO is not set up. */
export interface SsoConfig {
  issuer: string;
  audience: string;
  jwksUrl?: string;
  publicKeyPem?: string;
  /** Where the SSO page sends the browser (implicit flow, form_post); without it only the API accepts tokens. */
  authorizeUrl?: string;
  clientId?: string;
}

export type DbKind = 'pglite' | 'postgres';

export interface Config {
  port: number;
  env: 'production' | 'test' | 'development';
  db: { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string | null };
  sessionSecret: string;
  trustProxy: number;
  /** Idle timeout of a session (spec section 9: 1,800,000 ms). */
  sessionIdleMs: number;
  /** Inactivity after which the header countdown appears (spec section 9: 30 s). */
  countdownAfterMs: number;
  sso: SsoConfig | null;
  /** After SIGTERM, how long requests in flight may take before they are cut (and the exit code is 1). */
  shutdownTimeoutMs: number;
  /** Count database round trips per request and serve the counts (the benchmark only; src/db/query-count.ts). */
  countQueries?: boolean;
  /** Requests per API key and minute (API_KEY_RATE_LIMIT); unset: 600. */
  apiKeyRateLimit?: number;
}

export const SESSION_IDLE_MS = 1_800_000;
export const COUNTDOWN_AFTER_MS = 30_000;

/** The embedded default keeps a generated secret next to its data so sessions survive restarts. */
function secretInDataFolder(dir: string): string {
  const file = path.join(path.dirname(path.resolve(dir)), 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function parse<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

function dbOf(e: { DATABASE_URL?: string; PGLITE_DIR: string }): Config['db'] {
  return e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'pglite', dir: e.PGLITE_DIR };
}

/** Only which database: for the tools that handle the database alone (backup, restore) and need no secret. */
export function loadDbConfig(env: NodeJS.ProcessEnv = process.env): Config['db'] {
  return dbOf(parse(EnvSchema.pick({ DATABASE_URL: true, PGLITE_DIR: true }), env));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parse(EnvSchema, env);
  const ssoConfigured = Boolean(e.SSO_ISSUER || e.SSO_AUDIENCE || e.SSO_JWKS_URL || e.SSO_PUBLIC_KEY);
  if (ssoConfigured && !(e.SSO_ISSUER && e.SSO_AUDIENCE && (e.SSO_JWKS_URL || e.SSO_PUBLIC_KEY))) {
    throw new Error('Invalid configuration: SSO needs SSO_ISSUER, SSO_AUDIENCE and SSO_JWKS_URL or SSO_PUBLIC_KEY');
  }
  if (e.DATABASE_URL && !e.SESSION_SECRET) {
    throw new Error('Invalid configuration: SESSION_SECRET is required when DATABASE_URL is set');
  }
  return {
    port: e.PORT,
    env: e.NODE_ENV,
    db: dbOf(e),
    sessionSecret: e.SESSION_SECRET ?? secretInDataFolder(e.PGLITE_DIR),
    trustProxy: e.TRUST_PROXY,
    sessionIdleMs: SESSION_IDLE_MS,
    countdownAfterMs: COUNTDOWN_AFTER_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sso: ssoConfigured
      ? {
          issuer: e.SSO_ISSUER!, audience: e.SSO_AUDIENCE!, jwksUrl: e.SSO_JWKS_URL,
          publicKeyPem: e.SSO_PUBLIC_KEY?.replace(/\\n/g, '\n'), authorizeUrl: e.SSO_AUTHORIZE_URL, clientId: e.SSO_CLIENT_ID,
        }
      : null,
    countQueries: e.BENCH_COUNT_QUERIES === '1',
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
  };
}
