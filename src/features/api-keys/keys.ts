// What an API key looks like: `npk_<TENANT>_<secret>`, the secret 32 random bytes in base64url (43 characters).
// The prefix tells it apart from the JWT that the login returns (which starts with `eyJ`), so the API's
// authentication branches once on it, and makes a leaked key recognisable to secret scanners. The tenant in
// clear is no secret (every call names it in X-Mandant anyway); it lets the lookup run as that tenant under
// row-level security like every other tenant query. Only the SHA-256 of the whole key is stored: a fast hash
// is right for a 256-bit random secret, which no dictionary or brute force can reach, while argon2 (right for
// passwords, which are guessable) would cost ~50 ms of CPU on every API call.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'npk_';
const SECRET_BYTES = 32;
const SECRET_LENGTH = 43;
/** Tenant ids as src/db/rls.ts allows them, then the fixed-length secret at the end (so `_` in either is unambiguous). */
const KEY = /^npk_([A-Z0-9_-]{1,32})_([A-Za-z0-9_-]{43})$/;
/** The characters of the secret the list shows, enough to tell keys apart, far too few to guess the rest. */
const VISIBLE_SECRET = 6;

/** Does this bearer value claim to be an API key (as opposed to a login's JWT)? */
export const looksLikeApiKey = (token: string) => token.startsWith(KEY_PREFIX);

export interface NewKey {
  key: string;
  hash: string;
  praefix: string;
}

export function newKey(mandant: string): NewKey {
  const key = `${KEY_PREFIX}${mandant}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { key, hash: hashKey(key), praefix: visiblePrefix(key) };
}

export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export const visiblePrefix = (key: string) => key.slice(0, key.length - SECRET_LENGTH + VISIBLE_SECRET);

/** The tenant a well-formed key names, or null for anything malformed. */
export function parseKey(key: string): { mandant: string } | null {
  const m = KEY.exec(key);
  return m ? { mandant: m[1] } : null;
}

/** The canonical JSON of a value (object keys sorted), so the same body hashes the same whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
