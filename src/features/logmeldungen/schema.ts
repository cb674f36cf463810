// Inputs of the audit log viewer, validated at the edge. The list's parameters are declared with the list
// (list.ts) and checked by the list engine: a bad value is a 400 naming the parameter, on the page and the API.
import { z } from 'zod';

/** The tenant filter's value for entries without a tenant (failed logins). No tenant id can look like this. */
export const NO_MANDANT = '-';

/** A log entry's id (bigint): digits only, so `/logmeldungen/abc` is a 404, never a database error. */
export const LogId = z.string().regex(/^[1-9]\d{0,17}$/).transform(Number);
