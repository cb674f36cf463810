// The rules of a partner (spec section 3: per location a priority, a bio content in % and/or a bio quantity in
// L or kg). They are part of the partner's versioned record: every change runs in one transaction that also
// saves a new partner version whose `regeln` field holds the rules of all locations as they now are, so the
// version history shows each rule change and a version's snapshot shows the rules it had.
// A user limited to some locations sees and changes only the rules of those locations.
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../../db/audit.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import { decimal, requiredText } from '../../records/fields.js';
import type { Formatter } from '../../http/format.js';
import { fieldErrors } from '../../http/validate.js';
import type { Actor } from '../../records/service.js';
import { tauschpartnerStore, type RegelnSnapshot, type Tauschpartner, type RegelWerte } from './store.js';

export const BIOMENGE_EINHEITEN = ['L', 'kg'] as const;

const optionalChoice = <V extends string>(values: readonly [V, ...V[]]) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(values, { error: 'validation.invalid' }).optional());

/** A rule as the form and the API send it. Cross-field rules follow in parseRegel. */
export const RegelSchema = z.object({
  standortNr: requiredText(32),
  prioritaet: decimal({ min: 1, max: 1_000_000, scale: 0, required: true }),
  biogehalt: decimal({ min: 0, max: 100, scale: 4 }),
  biomenge: decimal({ min: 0, max: 999_999_999_999_999, scale: 3 }),
  biomengeEinheit: optionalChoice(BIOMENGE_EINHEITEN),
});

export interface RegelInput extends RegelWerte {
  standortNr: string;
}

export interface Regel extends RegelInput {
  id: number;
  standortName: string | null;
}

/**
 * Validates a rule, all fields at once: the schema, then "a valid bio quantity and/or bio content" (spec
 * section 5) and the unit that a quantity needs. A unit without a quantity is dropped.
 */
export function parseRegel(body: unknown): RegelInput {
  const parsed = RegelSchema.safeParse(body ?? {});
  const errors: FieldError[] = parsed.success ? [] : fieldErrors(parsed.error);
  const failed = new Set(errors.map((e) => e.field));
  const raw = (body ?? {}) as Record<string, unknown>;
  const given = (field: string) => failed.has(field) || (raw[field] !== undefined && raw[field] !== null && String(raw[field]).trim() !== '');
  if (!given('biogehalt') && !given('biomenge')) {
    errors.push({ field: 'biogehalt', message: 'tauschpartner:regeln.errors.bioRequired' }, { field: 'biomenge', message: 'tauschpartner:regeln.errors.bioRequired' });
  }
  if (given('biomenge') && !failed.has('biomenge') && !given('biomengeEinheit')) {
    errors.push({ field: 'biomengeEinheit', message: 'tauschpartner:regeln.errors.einheitRequired' });
  }
  if (errors.length || !parsed.success) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', errors);
  const d = parsed.data;
  return {
    standortNr: d.standortNr,
    prioritaet: Number(d.prioritaet),
    biogehalt: d.biogehalt,
    biomenge: d.biomenge,
    biomengeEinheit: d.biomenge !== null ? d.biomengeEinheit ?? null : null,
  };
}

/** "7.5000" → "7.5", "10000.000" → "10000": decimals as the API and the snapshot show them. */
export function canonicalDecimal(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const s = String(value);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

function toRegel(row: Record<string, unknown>): Regel {
  return {
    id: Number(row.id),
    standortNr: String(row.standort_nr),
    standortName: (row.standort_name as string) ?? null,
    prioritaet: Number(row.prioritaet),
    biogehalt: canonicalDecimal(row.biogehalt),
    biomenge: canonicalDecimal(row.biomenge),
    biomengeEinheit: (row.biomenge_einheit as RegelInput['biomengeEinheit']) ?? null,
  };
}

const toColumns = (r: RegelInput) => ({
  standort_nr: r.standortNr, prioritaet: r.prioritaet, biogehalt: r.biogehalt, biomenge: r.biomenge, biomenge_einheit: r.biomengeEinheit,
});

/** The partner's rules at the scope's locations, by location and priority. */
export async function regelnOf(scope: TenantScope, partnerNr: string): Promise<Regel[]> {
  const regeln = scope.atStandorte(scope.table('tauschpartner_regeln', 'r'), 'r.standort_nr');
  const rows = await scope
    .leftJoin(regeln, 'standorte', 's', (j) => j.on('s.nr', 'r.standort_nr'))
    .where('r.partner_nr', partnerNr)
    .orderBy([{ column: 'r.standort_nr' }, { column: 'r.prioritaet' }, { column: 'r.id' }])
    .select('r.*', 's.name as standort_name');
  return rows.map(toRegel);
}

/** The rules as the partner's version holds them: per location, in order of priority. Null: no rules. */
export function snapshotOf(regeln: RegelInput[]): RegelnSnapshot | null {
  if (!regeln.length) return null;
  const sorted = [...regeln].sort((a, b) => a.standortNr.localeCompare(b.standortNr) || a.prioritaet - b.prioritaet);
  const out: RegelnSnapshot = {};
  for (const r of sorted) {
    (out[r.standortNr] ??= []).push({ prioritaet: r.prioritaet, biogehalt: canonicalDecimal(r.biogehalt), biomenge: canonicalDecimal(r.biomenge), biomengeEinheit: r.biomengeEinheit });
  }
  return out;
}

/** A rule as the API answers it: with the spec's `priority` beside the stored `prioritaet`. */
export const regelWithSpecNames = <R extends { prioritaet: number }>(r: R) => ({ ...r, priority: r.prioritaet });

/** The rules snapshot as the API answers it (each rule with `priority`). */
export function snapshotWithSpecNames(snapshot: RegelnSnapshot): Record<string, ReturnType<typeof regelWithSpecNames<RegelWerte>>[]> {
  return Object.fromEntries(Object.entries(snapshot).map(([nr, regeln]) => [nr, regeln.map(regelWithSpecNames)]));
}

/** The snapshot a location-limited scope may see (only its locations). */
export function restrictSnapshot(scope: TenantScope, value: unknown): unknown {
  if (scope.standorte === 'all' || value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value as RegelnSnapshot).filter(([nr]) => scope.allowsStandort(nr));
  return kept.length ? Object.fromEntries(kept) : null;
}

/** A snapshot as lines of text for the version history, in the page's language. */
export function formatSnapshot(value: unknown, fmt: Formatter, t: (key: string, params?: Record<string, unknown>) => string): string[] {
  if (value === null || value === undefined || typeof value !== 'object') return ['–'];
  const number = (x: string) => fmt.number(x, (x.split('.')[1] ?? '').length);
  return Object.entries(value as RegelnSnapshot).flatMap(([standort, rules]) =>
    rules.map((r) => {
      const angaben = [
        r.biogehalt !== null ? t('tauschpartner:regeln.zeile.biogehalt', { wert: number(r.biogehalt) }) : null,
        r.biomenge !== null ? t('tauschpartner:regeln.zeile.biomenge', { wert: number(r.biomenge), einheit: r.biomengeEinheit ?? '' }) : null,
      ].filter(Boolean).join(', ');
      return t('tauschpartner:regeln.zeile.text', { standort, prioritaet: r.prioritaet, angaben });
    }),
  );
}

export interface RegelScopes {
  /** The locations whose rules the user sees, and those whose rules they may change. */
  view: TenantScope;
  edit: TenantScope;
}

export interface RegelChange {
  regel: Regel | null;
  before: Regel | null;
  partner: Tauschpartner & Meta;
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'tauschpartner:regeln.errors.notFound');
const notAllowed = () => new HttpError(403, 'FORBIDDEN', 'records:errors.standortNotAllowed', [{ field: 'standortNr', message: 'records:errors.standortNotAllowed' }]);

/**
 * Runs one rule change for a partner in a transaction: locks the partner (so rule changes of one partner run
 * one after another), checks the version the user saw, applies the change, and saves the partner's new rules
 * as a new version when they changed.
 */
async function changeRules(
  scopes: RegelScopes, partnerNr: string, basedOn: number | undefined, actor: Actor, op: 'create' | 'update' | 'delete',
  apply: (tx: TenantScope) => Promise<{ regelId: number | null; before: Regel | null }>,
): Promise<RegelChange> {
  return scopes.edit.transaction(async (tx) => {
    const partner = await tauschpartnerStore.lock(tx, partnerNr);
    if (!partner) throw new HttpError(404, 'NOT_FOUND', 'records:errors.notFound');
    if (basedOn !== undefined && basedOn !== partner.version) throw new HttpError(409, 'VERSION_CONFLICT', 'records:errors.versionConflict');
    // The snapshot always covers every location (tx.withStandorte('all')), whatever the user may see.
    const all = tx.withStandorte('all');
    const beforeSnapshot = snapshotOf(await regelnOf(all, partnerNr));
    const { regelId, before } = await apply(tx);
    const afterSnapshot = snapshotOf(await regelnOf(all, partnerNr));
    const changed = JSON.stringify(beforeSnapshot) !== JSON.stringify(afterSnapshot);
    const saved = changed ? await tauschpartnerStore.write(tx, partner, { regeln: afterSnapshot }, actor.user.id) : partner;
    const regel = regelId === null ? null : (await regelnOf(all, partnerNr)).find((r) => r.id === regelId) ?? null;
    // Audited in the same transaction as the change (as the record service does for every record write).
    await audit(tx.knex as Knex, {
      kind: `stammdaten.tauschpartner.regel.${op}`, mandant: actor.mandant, benutzerId: actor.user.id, entity: 'tauschpartner', entityId: partnerNr,
      before: before ?? undefined, after: regel ?? undefined, ip: actor.ip,
    });
    return { regel, before, partner: saved };
  });
}

/** The location must be one the user may change, and one of the tenant's; its priority still free. */
async function checkTarget(tx: TenantScope, edit: TenantScope, partnerNr: string, input: RegelInput, exceptId: number | null) {
  if (!edit.allowsStandort(input.standortNr)) throw notAllowed();
  if (!(await tx.table('standorte').where({ nr: input.standortNr }).first('nr'))) {
    throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: 'standortNr', message: 'tauschpartner:regeln.errors.standortUnknown' }]);
  }
  const taken = tx.table('tauschpartner_regeln').where({ partner_nr: partnerNr, standort_nr: input.standortNr, prioritaet: input.prioritaet });
  if (await (exceptId === null ? taken : taken.whereNot('id', exceptId)).first('id')) {
    throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: 'prioritaet', message: 'tauschpartner:regeln.errors.prioritaetTaken' }]);
  }
}

/** The rule, if the user sees it (else 404) and may change it (else 403). */
async function editableRule(tx: TenantScope, scopes: RegelScopes, partnerNr: string, id: number): Promise<Regel> {
  const row = await tx.table('tauschpartner_regeln').where({ id, partner_nr: partnerNr }).forUpdate().first();
  if (!row || !scopes.view.allowsStandort(row.standort_nr)) throw notFound();
  if (!scopes.edit.allowsStandort(row.standort_nr)) throw notAllowed();
  return toRegel(row);
}

export function addRegel(scopes: RegelScopes, partnerNr: string, input: RegelInput, basedOn: number | undefined, actor: Actor) {
  return changeRules(scopes, partnerNr, basedOn, actor, 'create', async (tx) => {
    await checkTarget(tx, scopes.edit, partnerNr, input, null);
    const [row] = await tx.insert('tauschpartner_regeln', { partner_nr: partnerNr, ...toColumns(input) }).returning('id');
    return { regelId: Number(row.id), before: null };
  });
}

export function updateRegel(scopes: RegelScopes, partnerNr: string, id: number, input: RegelInput, basedOn: number | undefined, actor: Actor) {
  return changeRules(scopes, partnerNr, basedOn, actor, 'update', async (tx) => {
    const before = await editableRule(tx, scopes, partnerNr, id);
    await checkTarget(tx, scopes.edit, partnerNr, input, id);
    await tx.table('tauschpartner_regeln').where({ id, partner_nr: partnerNr }).update(toColumns(input));
    return { regelId: id, before };
  });
}

export function deleteRegel(scopes: RegelScopes, partnerNr: string, id: number, basedOn: number | undefined, actor: Actor) {
  return changeRules(scopes, partnerNr, basedOn, actor, 'delete', async (tx) => {
    const before = await editableRule(tx, scopes, partnerNr, id);
    await tx.table('tauschpartner_regeln').where({ id, partner_nr: partnerNr }).delete();
    return { regelId: null, before };
  });
}

/** Locations a rule can be given: the active ones the user may change, plus those of existing rules (even if inactive). */
export async function standortChoices(edit: TenantScope, current: string[] = []): Promise<{ nr: string; name: string }[]> {
  const rows = await edit
    .atStandorte(edit.table('standorte', 's'), 's.nr')
    .where((w) => (current.length ? w.where('s.status', 'aktiv').orWhereIn('s.nr', current) : w.where('s.status', 'aktiv')))
    .orderBy('s.nr')
    .select('s.nr', 's.name');
  return rows.map((r: { nr: string; name: string }) => ({ nr: r.nr, name: r.name }));
}
