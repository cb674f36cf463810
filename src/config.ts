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
  SSO_CLIENT_ID: z.string().min(1).optional(),
  SSO_CLIENT_SECRET: z.string().min(1).optional(),
  // Overrides of what discovery finds (kept from the first SSO version; see docs/decisions.md, "SSO").
  SSO_AUDIENCE: z.string().min(1).optional(),
  SSO_JWKS_URL: z.string().url().optional(),
  SSO_PUBLIC_KEY: z.string().min(1).optional(),
  BENCH_COUNT_QUERIES: z.enum(['0', '1']).optional(),
  BENCH_LATENCY_PROBE: z.string().min(1).optional(),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).optional(),
  WEB_CONCURRENCY: z.coerce.number({ error: 'must be a whole number of worker processes, at least 1' })
    .int('must be a whole number of worker processes, at least 1')
    .min(1, 'must be a whole number of worker processes, at least 1')
    .optional(),
});

/**
 * The OpenID Connect provider users sign in with; null when SSO is not set up. Its endpoints and signing keys
 * come from `{issuer}/.well-known/openid-configuration` (src/auth/sso.ts); a deployment sets the issuer and
 * the client id, and the client secret for a confidential client.
 */
export interface SsoConfig {
  issuer: string;
  /** The portal's client id at the provider: the browser flow needs it; it is the id_token's audience. */
  clientId?: string;
  /** Set: the code is redeemed with client_secret_basic; unset: a public client with PKCE alone. */
  clientSecret?: string;
  /** The id_token's expected audience: the client id unless overridden. */
  audience: string;
  /** Overrides of the discovered JWKS: a URL, or one public key as PEM (tokens signed elsewhere, tests). */
  jwksUrl?: string;
  publicKeyPem?: string;
  /** After a JWKS fetch, how long an unknown key id fetches nothing more (default 30 s; tests shorten it). */
  jwksCooldownMs?: number;
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
  /** Measure the time requests spend in the server and the event loop's delay (the benchmark only; src/http/latency-probe.ts). */
  latencyProbeFile?: string;
  /** Requests per API key and minute (API_KEY_RATE_LIMIT); unset: 600. */
  apiKeyRateLimit?: number;
  /** Worker processes on PostgreSQL (WEB_CONCURRENCY); unset: one per core (src/cluster.ts). */
  webConcurrency?: number;
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

/** Plain http is for a provider on this machine only (a test or a developer's Keycloak); elsewhere https. */
export function isLoopbackUrl(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

function ssoConfig(e: z.infer<typeof EnvSchema>): SsoConfig | null {
  const anySet = Boolean(e.SSO_ISSUER || e.SSO_CLIENT_ID || e.SSO_CLIENT_SECRET || e.SSO_AUDIENCE || e.SSO_JWKS_URL || e.SSO_PUBLIC_KEY);
  if (!anySet) return null;
  const audience = e.SSO_AUDIENCE ?? e.SSO_CLIENT_ID;
  if (!e.SSO_ISSUER || !audience) throw new Error('Invalid configuration: SSO needs SSO_ISSUER and SSO_CLIENT_ID');
  if (e.SSO_CLIENT_SECRET && !e.SSO_CLIENT_ID) throw new Error('Invalid configuration: SSO_CLIENT_SECRET needs SSO_CLIENT_ID');
  const issuer = new URL(e.SSO_ISSUER);
  if (issuer.protocol !== 'https:' && !isLoopbackUrl(issuer)) {
    throw new Error('Invalid configuration: SSO_ISSUER must be an https:// URL (plain http only for a provider on this machine)');
  }
  return {
    issuer: e.SSO_ISSUER, clientId: e.SSO_CLIENT_ID, clientSecret: e.SSO_CLIENT_SECRET, audience,
    jwksUrl: e.SSO_JWKS_URL, publicKeyPem: e.SSO_PUBLIC_KEY?.replace(/\\n/g, '\n'),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parse(EnvSchema, env);
  const sso = ssoConfig(e);
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
    sso,
    countQueries: e.BENCH_COUNT_QUERIES === '1',
    latencyProbeFile: e.BENCH_LATENCY_PROBE,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    webConcurrency: e.WEB_CONCURRENCY,
  };
}
