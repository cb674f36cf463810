// The plan PostgreSQL (or PGlite) makes for a query, as the tests that hold the lists' indexes and the
// benchmark read it: EXPLAIN in JSON, run in the caller's tenant transaction, the nodes flattened.
import type { Knex } from 'knex';
import { executeLiterals } from '../db/knex-internals.js';
import type { TenantScope } from '../db/scope.js';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  /** With `analyze`: how often the node ran (0: never), and the rows it returned and filtered out. */
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

export interface Plan {
  /** Every node of the plan, the top one first. */
  nodes: PlanNode[];
  /** With `analyze`: milliseconds. */
  planningMs?: number;
  executionMs?: number;
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/** EXPLAIN of `query` inside `tx` (a scope's transaction, so row-level security applies as for the app). */
export async function explain(tx: TenantScope, query: Knex.QueryBuilder, { analyze = false } = {}): Promise<Plan> {
  const { sql, bindings } = query.toSQL();
  const [row] = (await tx.knex.raw(`explain (${analyze ? 'analyze, ' : ''}format json) ${sql}`, bindings)).rows as {
    'QUERY PLAN': [{ Plan: PlanNode; 'Planning Time'?: number; 'Execution Time'?: number }];
  }[];
  const { Plan: top, 'Planning Time': planningMs, 'Execution Time': executionMs } = row['QUERY PLAN'][0];
  return { nodes: flatten(top), planningMs, executionMs };
}

let checks = 0;

/**
 * EXPLAIN of the generic plan of `query` inside `tx`: the plan a statement marked prepared(…, { generic: true })
 * runs (src/db/knex-internals.ts), made without its values. Prepared under a name of its own, explained with
 * plan_cache_mode forced to the generic plan, and deallocated again.
 */
export async function explainGeneric(tx: TenantScope, query: Knex.QueryBuilder): Promise<Plan> {
  const { sql, bindings } = query.toSQL().toNative();
  const literals = executeLiterals(bindings);
  if (!literals) throw new Error('explainGeneric: a value that is not a plain scalar');
  const name = `plan_check_${++checks}`;
  await tx.knex.raw(`prepare ${name} as ${sql}`);
  try {
    await tx.knex.raw('set local plan_cache_mode = force_generic_plan');
    const [row] = (await tx.knex.raw(`explain (format json) execute ${name}${literals.length ? `(${literals.join(', ')})` : ''}`)).rows as { 'QUERY PLAN': [{ Plan: PlanNode }] }[];
    return { nodes: flatten(row['QUERY PLAN'][0].Plan) };
  } finally {
    await tx.knex.raw(`deallocate ${name}`);
  }
}
