// SQL of Nachrichten. Every query goes through the tenant scope (messages and read marks are tenant data
// under row-level security); a system administrator's message to all tenants is written per tenant by the service.
import type { TenantScope } from '../../db/scope.js';

export interface Nachricht {
  id: number;
  titel: string;
  text: string;
  gueltigVon: string;
  gueltigBis: string | null;
  /** Sent to all tenants by a system administrator (one row per tenant, the same group). */
  anAlle: boolean;
  erstelltAm: string;
  erstelltVon: string | null;
  /** Not read by the user asking (null where the question was not asked: the administrators' overview). */
  ungelesen: boolean | null;
}

type Row = Record<string, unknown>;

const toNachricht = (r: Row): Nachricht => ({
  id: Number(r.id),
  titel: String(r.titel),
  text: String(r.text),
  gueltigVon: String(r.gueltig_von),
  gueltigBis: r.gueltig_bis == null ? null : String(r.gueltig_bis),
  anAlle: r.gruppe != null,
  erstelltAm: new Date(r.erstellt_am as string).toISOString(),
  erstelltVon: (r.erstellt_von_name as string | null) ?? null,
  ungelesen: r.ungelesen == null ? null : Boolean(r.ungelesen),
});

/** The part of a select that says whether `benutzerId` has read message `n`. */
function gelesenVon(scope: TenantScope, benutzerId: number) {
  return scope.table('nachrichten_gelesen', 'g').whereRaw('g.nachricht_id = n.id').where('g.benutzer_id', benutzerId).select(scope.knex.raw('1'));
}

function mitAutor(scope: TenantScope) {
  return scope.table('nachrichten', 'n')
    .leftJoin({ b: 'benutzer' }, 'b.id', 'n.erstellt_von')
    .select('n.*', scope.knex.raw(`nullif(concat_ws(' ', b.vorname, b.nachname), '') as erstellt_von_name`));
}

/** Messages valid on `heute`, newest first, each with whether the user has read it. */
export async function aktuelle(scope: TenantScope, benutzerId: number, heute: string): Promise<Nachricht[]> {
  const rows = (await mitAutor(scope)
    .where('n.gueltig_von', '<=', heute)
    .where((w) => w.whereNull('n.gueltig_bis').orWhere('n.gueltig_bis', '>=', heute))
    .select(scope.knex.raw(`not exists (${gelesenVon(scope, benutzerId).toQuery()}) as ungelesen`))
    .orderBy([{ column: 'n.gueltig_von', order: 'desc' }, { column: 'n.id', order: 'desc' }])
    .limit(200)) as Row[];
  return rows.map(toNachricht);
}

/** Every message of the tenant, past and future included (the administrators' overview), newest first. */
export async function alle(scope: TenantScope): Promise<Nachricht[]> {
  const rows = (await mitAutor(scope).orderBy([{ column: 'n.gueltig_von', order: 'desc' }, { column: 'n.id', order: 'desc' }]).limit(500)) as Row[];
  return rows.map(toNachricht);
}

/** One message of the tenant, or null; `heute`: only if valid then. */
export async function eine(scope: TenantScope, id: number, heute?: string): Promise<Nachricht | null> {
  const q = mitAutor(scope).where('n.id', id);
  if (heute) q.where('n.gueltig_von', '<=', heute).where((w) => w.whereNull('n.gueltig_bis').orWhere('n.gueltig_bis', '>=', heute));
  const row = (await q.first()) as Row | undefined;
  return row ? toNachricht(row) : null;
}

export interface NeueNachricht {
  titel: string;
  text: string;
  gueltigVon: string;
  gueltigBis: string | null;
  gruppe: string | null;
  erstelltVon: number;
}

export async function anlegen(tx: TenantScope, n: NeueNachricht): Promise<number> {
  const [row] = (await tx.insert('nachrichten', {
    titel: n.titel, text: n.text, gueltig_von: n.gueltigVon, gueltig_bis: n.gueltigBis, gruppe: n.gruppe, erstellt_von: n.erstelltVon,
  }).returning('id')) as Row[];
  return Number(row.id);
}

export async function loeschen(tx: TenantScope, id: number): Promise<number> {
  return Number(await tx.table('nachrichten').where('id', id).delete());
}

/** Marks these messages read for the user (those already read stay as they were). Returns how many were new. */
export async function gelesen(tx: TenantScope, benutzerId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = (await tx.insert('nachrichten_gelesen', ids.map((id) => ({ nachricht_id: id, benutzer_id: benutzerId })))
    .onConflict(['mandant', 'benutzer_id', 'nachricht_id']).ignore().returning('nachricht_id')) as Row[];
  return rows.length;
}

/** The active tenants (a system administrator's message to all). */
export async function aktiveMandanten(tx: TenantScope): Promise<string[]> {
  return (await tx.knex('mandanten').where('status', 'active').orderBy('mandant').pluck('mandant')) as string[];
}
