// The page-size rule, written once: what the settings offer as a user's items per page, what a list request
// may ask for with `pageSize`, and which size a list has when the request names none. The settings screen,
// the settings schema, every list page and every list API read it from here.
//
// The contract: "`pageSize` defaults to the user's itemsPerPage and is capped at 500". The settings offer a
// few sizes (the spec leaves them open; docs/decisions.md names them); a request may ask for any whole number
// from 1, so a client can page as it likes, and gets at most the cap (the response's `pageSize` says so).
// A size that is no whole number of at least 1 is refused by name (400), never replaced silently.

/** The sizes the settings screen offers as items per page. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Items per page of a user who chose none (spec section 9). */
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 10;

/** The contract's cap: the most rows a list answers a page, whatever `pageSize` asked for. */
export const MAX_PAGE_SIZE = 500;

/**
 * The page size a list request's `pageSize` gives: a whole number of at least 1 (digits only, so `1e2` and
 * `2.5` are no size), capped at MAX_PAGE_SIZE; undefined for anything else, which the caller refuses.
 */
export function requestedPageSize(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? Math.min(n, MAX_PAGE_SIZE) : undefined;
}

/** Whether the settings offer this size. */
export function isOfferedPageSize(n: number): boolean {
  return (PAGE_SIZES as readonly number[]).includes(n);
}

/**
 * The page size of a list whose request names none: the user's items per page, or the default when there is
 * no user or the stored setting is not one the settings offer (written by an older version, say).
 */
export function defaultPageSize(settings?: { itemsPerPage?: unknown } | null): number {
  const chosen = Number(settings?.itemsPerPage);
  return isOfferedPageSize(chosen) ? chosen : DEFAULT_PAGE_SIZE;
}
