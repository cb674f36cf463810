// Before/after of an audit entry as a list of field changes, so a person reads "status: active → inactive"
// instead of comparing two JSON documents. Pure: no I/O, no formatting (the view formats values).

export type Change = 'added' | 'removed' | 'changed' | 'unchanged';

export interface FieldChange {
  /** Dotted path of the field (`settings.theme`); '' when before/after are a single value, not an object. */
  path: string;
  before: unknown;
  after: unknown;
  change: Change;
  /** A secret (password, hash, token …): that it changed is shown, the values are not. */
  hidden: boolean;
}

const SECRET = /passw(or)?d|passwort|secret|token|hash/i;
/** Timestamps such as password_changed_at say when, not what: they stay visible. */
const isSecret = (key: string) => SECRET.test(key) && !/(_at|At)$/.test(key);
const MAX_DEPTH = 8;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0;

/** Nested objects become dotted paths; arrays, empty objects and scalars are values of their own. */
function flatten(value: unknown, prefix = '', depth = 0, out = new Map<string, unknown>()): Map<string, unknown> {
  if (isPlainObject(value) && depth < MAX_DEPTH) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, depth + 1, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields of `before` and `after` with what happened to each, sorted by path. A side that
 * is null or missing (a creation, a deletion, a failed login) contributes no fields.
 */
export function diffEntries(before: unknown, after: unknown): FieldChange[] {
  const b = before == null ? new Map<string, unknown>() : flatten(before);
  const a = after == null ? new Map<string, unknown>() : flatten(after);
  // Sorted by name: jsonb keeps no order of its own (it stores shorter keys first), so this is the order a reader expects.
  const paths = [...new Set([...b.keys(), ...a.keys()])].sort((x, y) => x.localeCompare(y, 'en'));
  return paths.map((path) => {
    const inBefore = b.has(path);
    const inAfter = a.has(path);
    const change: Change = !inBefore ? 'added' : !inAfter ? 'removed' : same(b.get(path), a.get(path)) ? 'unchanged' : 'changed';
    const hidden = isSecret(path);
    return {
      path,
      before: hidden ? undefined : b.get(path),
      after: hidden ? undefined : a.get(path),
      change,
      hidden,
    };
  });
}

/** Removes secrets from before/after before they leave the server as raw JSON (API and the page's raw view). */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isSecret(k) ? '[redacted]' : redactSecrets(v, depth + 1)]),
  );
}
