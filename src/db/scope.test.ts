// TenantScope without a database (nothing here queries; src/db/rls.test.ts runs scopes against one): memo(), a
// value worked out once per request, tenant and location scope, shared by the scopes of one request (as
// src/http/tenant.ts builds them) and by nothing else; and leftJoin(), which adds the tenant to a join.
import knexFactory from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { TenantRequest, TenantScope } from './scope.js';

const knex = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none' });
afterAll(() => knex.destroy());

/** A computation that counts how often it ran. */
function counted<T>(value: T) {
  const fn = Object.assign(async () => {
    fn.calls++;
    return value;
  }, { calls: 0 });
  return fn;
}

describe('TenantScope.memo', () => {
  it('computes once for the scopes of one request, and again for the next request', async () => {
    const request = new TenantRequest(knex, 'DEMO');
    const compute = counted(['a']);
    const first = new TenantScope(knex, 'DEMO', 'all', request);
    const second = new TenantScope(knex, 'DEMO', 'all', request);
    expect(await Promise.all([first.memo('k', compute), second.memo('k', compute), first.memo('k', compute)])).toEqual([['a'], ['a'], ['a']]);
    expect(compute.calls).toBe(1);

    const next = new TenantScope(knex, 'DEMO', 'all', new TenantRequest(knex, 'DEMO'));
    await next.memo('k', compute);
    expect(compute.calls).toBe(2);
  });

  it('keeps a value apart per location scope (withStandorte shares the request, not the value)', async () => {
    const all = new TenantScope(knex, 'DEMO', 'all', new TenantRequest(knex, 'DEMO'));
    const few = all.withStandorte(['1002', '1001']);
    expect(await all.memo('k', async () => 'all')).toBe('all');
    expect(await few.memo('k', async () => 'few')).toBe('few');
    expect(await all.withStandorte(['1001', '1002']).memo('k', async () => 'again')).toBe('few');
    expect(await few.withStandorte([]).memo('k', async () => 'none')).toBe('none');
  });

  it('does not keep a failure: the next caller computes anew', async () => {
    const scope = new TenantScope(knex, 'DEMO');
    await expect(scope.memo('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await scope.memo('k', async () => 'back')).toBe('back');
  });

  it("gives a scope built without the request's state a memo of its own", async () => {
    const compute = counted(1);
    await new TenantScope(knex, 'DEMO').memo('k', compute);
    await new TenantScope(knex, 'DEMO').memo('k', compute);
    expect(compute.calls).toBe(2);
  });

  it("refuses another tenant's request state", () => {
    expect(() => new TenantScope(knex, 'NORD', 'all', new TenantRequest(knex, 'DEMO'))).toThrow(/NORD scope with the request state of DEMO/);
  });
});

describe('TenantScope.leftJoin', () => {
  it("limits the joined table to the scope's tenant, besides the feature's own condition", () => {
    const scope = new TenantScope(knex, 'DEMO');
    const { sql, bindings } = scope.leftJoin(scope.table('bestaende', 'b'), 'standorte', 's', (j) => j.on('s.nr', 'b.standort_nr')).select('s.name').toSQL();
    expect(sql).toBe('select "s"."name" from "bestaende" as "b" left join "standorte" as "s" on "s"."nr" = "b"."standort_nr" and "s"."mandant" = ? where "b"."mandant" = ?');
    expect(bindings).toEqual(['DEMO', 'DEMO']);
  });
});
