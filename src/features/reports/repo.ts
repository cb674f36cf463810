// The reports' SQL outside the reports themselves: whether a parameter's number exists in the tenant, the
// choices of the generator's selects, and the parameters a user last generated a report with. All through the
// tenant scope (tenant, and for locations the user's locations).
import type { TenantScope } from '../../db/scope.js';

export type Stammtabelle = 'tauschpartner' | 'standorte' | 'produkte';

/** Whether a record with this number exists in the tenant (any status: old reports name deactivated ones). */
export async function existiert(scope: TenantScope, tabelle: Stammtabelle, nr: string): Promise<boolean> {
  return (await scope.table(tabelle).where(`${tabelle}.nr`, nr).first('nr')) !== undefined;
}

export interface Auswahl {
  partner: { nr: string; name: string }[];
  standorte: { nr: string; name: string }[];
  produkte: { nr: string; name: string }[];
}

/** The generator's choices: the tenant's partners and products, the user's locations; by name. */
export async function auswahl(scope: TenantScope): Promise<Auswahl> {
  const liste = (qb: ReturnType<TenantScope['table']>) => qb.orderBy([{ column: 'name' }, { column: 'nr' }]).select('nr', 'name') as unknown as Promise<{ nr: string; name: string }[]>;
  const [partner, standorte, produkte] = await Promise.all([
    liste(scope.table('tauschpartner')),
    liste(scope.atStandorte(scope.table('standorte'), 'standorte.nr')),
    liste(scope.table('produkte')),
  ]);
  return { partner, standorte, produkte };
}

export interface Vorgaben {
  bericht: string;
  parameter: Record<string, string>;
}

/** The parameters the user last generated a report with in this tenant, if any. */
export async function vorgabenLesen(scope: TenantScope, benutzerId: number): Promise<Vorgaben | null> {
  const row = await scope.table('report_vorgaben').where('report_vorgaben.benutzer_id', benutzerId).first('bericht', 'parameter');
  if (!row) return null;
  const parameter = typeof row.parameter === 'string' ? JSON.parse(row.parameter) : row.parameter;
  return { bericht: String(row.bericht), parameter: parameter ?? {} };
}

/** Remembers them (one row per user and tenant, replaced). */
export async function vorgabenSpeichern(scope: TenantScope, benutzerId: number, vorgaben: Vorgaben): Promise<void> {
  await scope.transaction(async (tx) => {
    const row = { benutzer_id: benutzerId, bericht: vorgaben.bericht, parameter: JSON.stringify(vorgaben.parameter), updated_at: new Date() };
    await tx.insert('report_vorgaben', row).onConflict(['mandant', 'benutzer_id']).merge(['bericht', 'parameter', 'updated_at']);
  });
}

/** Names of the numbers a report's parameters give (for the title page and the result's heading). */
export async function namen(scope: TenantScope, tabelle: Stammtabelle, nr: string): Promise<string | null> {
  const row = await scope.table(tabelle).where(`${tabelle}.nr`, nr).first('name');
  return row ? String(row.name) : null;
}

/** The tenant's name (the title page). */
export async function mandantName(scope: TenantScope): Promise<string> {
  const row = await scope.table('mandanten').first('name');
  return row ? String(row.name) : scope.mandant;
}
