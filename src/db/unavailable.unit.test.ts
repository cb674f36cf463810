// Which errors are an unreachable database (503) and which are bugs or bad input (500/4xx): the shapes pg,
// knex and Node actually produce, as seen in src/reliability/faults.test.ts.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const error = (message: string, props: Record<string, unknown> = {}) => Object.assign(new Error(message), props);

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', error('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['connection reset while connecting', error('connect ECONNRESET 127.0.0.1:5432', { code: 'ECONNRESET' })],
    ['COMMIT on a reset connection', error('COMMIT; - read ECONNRESET', { code: 'ECONNRESET' })],
    ['session terminated (pg_terminate_backend)', error('select 1 - terminating connection due to administrator command', { code: '57P01' })],
    ['server starting up', error('the database system is starting up', { code: '57P03' })],
    ['too many connections', error('sorry, too many clients already', { code: '53300' })],
    ['connection exception class 08', error('connection failure', { code: '08006' })],
    ['connection died under a query', error('select 1 - Connection terminated unexpectedly')],
    ['ROLLBACK on a dead connection', error('ROLLBACK - Client has encountered a connection error and is not queryable')],
    ['connect timeout', error('timeout expired')],
    ['pool timeout', error('Knex: Timeout acquiring a connection.', { name: 'KnexTimeoutError' })],
    ['pool destroyed', error('Unable to acquire a connection')],
    ['wrapped', error('query failed', { cause: error('x', { code: 'ECONNREFUSED' }) })],
  ])('%s: unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['unique violation', error('duplicate key value violates unique constraint', { code: '23505' })],
    ['syntax error', error('syntax error at or near "selec"', { code: '42601' })],
    ['statement timeout (a slow query, not an outage)', error('canceling statement due to statement timeout', { code: '57014' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: not unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
