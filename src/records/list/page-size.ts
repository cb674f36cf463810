// The page-size rule, written once: what the settings offer as a user's items per page, what a list request
// may ask for with `pageSize`, and which size a list has when the request names none. The settings screen,
// the settings schema, every list page and every list API read it from here.
//
// The contract: "`pageSize` defaults to the user's itemsPerPage and is capped at 500". The settings offer a
// few sizes (the spec leaves them open; docs/decisions.md names them); a request may ask for any whole number
// from 1 to the cap, so a client can page as it likes. A size outside that range is refused by name (400),
// never cut down or replaced silently.

/** The sizes the settings screen offers as items per page. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Items per page of a user who chose none (spec section 9). */
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 10;

/** The contract's cap: the largest `pageSize` a list request may ask for. */
export const MAX_PAGE_SIZE = 500;

/** Whether a list request may ask for this many rows a page. */
export function isPageSize(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE;
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
