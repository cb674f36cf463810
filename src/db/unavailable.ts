// Errors that mean "the database cannot be reached right now" rather than "this request went wrong": the
// connection was refused, reset or timed out, the server shut down or terminated our session, or the pool had
// no connection to give in time. The error handler answers them with 503, so people and load balancers try
// again shortly instead of reporting a bug; everything else stays a 500.

/** Socket errors of a connection that failed or broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs: class 08 (connection exception), the server shutting down or terminating the session
 * (pg_terminate_backend is 57P01), still starting up (57P03), or out of connection slots (53300).
 */
const SQLSTATE = /^(08...|57P0[1-3]|53300)$/;

/**
 * What pg and knex say when a connection died under a query or a transaction's ROLLBACK, when connecting timed
 * out (pg's connectionTimeoutMillis), or when the pool is gone. They carry no code, so the message it is.
 */
const MESSAGES = /Connection terminated|Connection ended unexpectedly|not queryable|timeout expired|Unable to acquire a connection/;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
