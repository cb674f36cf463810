// Who wrote a version, when no user did: `quelle` names the writer that is not a person. 'demo' marks the
// versions the demo-data seeds (and the load-test seed) write, so the history says "Demo-Daten" instead of
// "unbekannt"; null is a user's version (benutzer_id). Every versions table gets it (tables named *_versionen
// with a benutzer_id, found in the catalogue); a later migration that creates a versions table adds it too.
//
// Existing demo versions are the ones without a user: the seeds were the only writers that left benutzer_id
// empty (a deleted user's id stays, with no row to name it: that remains "unbekannt").
import type { Knex } from 'knex';
import { setTenant } from '../src/db/rls.js';

async function versionTables(knex: Knex, withQuelle: boolean): Promise<string[]> {
  const rows: { table_name: string }[] = await knex('information_schema.columns')
    .where({ table_schema: knex.raw('current_schema()'), column_name: withQuelle ? 'quelle' : 'benutzer_id' })
    .andWhere('table_name', 'like', '%\\_versionen')
    .orderBy('table_name')
    .select('table_name');
  return rows.map((r) => r.table_name);
}

export async function up(knex: Knex): Promise<void> {
  const tables = await versionTables(knex, false);
  for (const table of tables) {
    await knex.raw(`alter table ?? add column quelle varchar(16), add constraint ?? check (quelle in ('demo'))`, [table, `${table}_quelle_chk`]);
  }
  // The tables are under row-level security, which binds the owner too: tenant by tenant.
  const mandanten: { mandant: string }[] = await knex('mandanten').orderBy('mandant').select('mandant');
  for (const { mandant } of mandanten) {
    await setTenant(knex as Knex.Transaction, mandant);
    for (const table of tables) await knex(table).where({ mandant }).whereNull('benutzer_id').update({ quelle: 'demo' });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of await versionTables(knex, true)) await knex.raw('alter table ?? drop column quelle', [table]);
}
