// The certificate import: Nachweise from a CSV or XLSX file whose columns are named by the form's labels (the
// master-data import's reader, src/import/labelled.ts), through the shared preview, staging and all-or-nothing
// commit (src/import/engine.ts). Each row is checked as a certificate entered by hand:
//   - the record type's schema (per row, without the database);
//   - against the tenant's locations and products, loaded once per import: a new or changed location or product
//     must exist and be active; the location must be one the user may import at (the engine's locationProblem,
//     with the edit right's locations);
//   - completeNachweis with the product's group and the law values of the row's issue date (all law values are
//     read once), so the figures are those the form and the API would store. An import of old data may omit the
//     plant's start (`anlageOptional`): the strictest threshold applies and the warning ANLAGE_UNBEKANNT says so.
// Errors refuse the row (and so the import); warnings (the certificate's Hinweise) are shown and stored with it.
// A certificate's number is its natural key: a new number is created; an existing one whose file fields differ
// gets a new version with its figures computed again (refused when it is used, split or cancelled: its lock); one
// whose file fields are as stored is left alone, figures and all.
import type { TenantScope } from '../../db/scope.js';
import { changesOf, type Meta } from '../../db/versioned.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import { GesetzeswertFehlt } from '../../domain/gesetzeswerte.js';
import type { FieldError } from '../../errors.js';
import type { RequestActor } from '../../http/tenant.js';
import {
  commit as commitImport, findImport as findStaged, preview as previewImport, type ChunkCheck, type Entity, type FieldProblem, type ImportPlan, type Settled,
} from '../../import/engine.js';
import { labelledHeader, type LabelledOptions } from '../../import/labelled.js';
import type { Counts, Translate } from '../../import/schema.js';
import type { Staging } from '../../import/staging.js';
import type { UploadedFile } from '../../import/upload.js';
import { allMasterRecords, checkReference } from '../bewegungsdaten/references.js';
import { gesetzeswerteTabelle } from '../gesetzeswerte/service.js';
import { completeNachweis, nachweisConfig, type Nachweis } from '../nachweise/nachweis.js';

export { PREVIEW_ROWS } from '../../import/engine.js';

export const entity = nachweisConfig as unknown as Entity;

/** The plant's start may be missing from old data; the row's product names it in the preview. */
export const READING: LabelledOptions = { optional: ['anlageInbetriebnahme'], titleField: 'produktNr' };

/** What completeNachweis decides beyond the file's fields: written with them whenever a row changes something. */
export const FIGURES = [
  'produktgruppe', 'lcv', 'mengeVerbleibend', 'energiegehalt', 'thg', 'einsparung', 'schwelle', 'vergleichswert', 'basiswert', 'thgMinderungT', 'hinweise',
] as const;

const REFERENCES = ['standortNr', 'produktNr'] as const;

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const pick = (o: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, o[f]]));
const today = () => new Date().toISOString().slice(0, 10);

/** A certificate's warnings as the preview names them: the field, the sanity check's message and its values. */
export const warningsOf = (n: Nachweis): FieldProblem[] =>
  (n.hinweise ?? []).map((h) => ({ field: h.field, message: `nachweis-pruefung:codes.${h.code}`, params: { ...(h.params ?? {}), code: h.code } }));

/** The check of a chunk of rows: master data and law values loaded once per run (preview, and again at the commit). */
async function nachweisChecks(scope: TenantScope): Promise<ChunkCheck> {
  const masters = await allMasterRecords(scope, REFERENCES);
  const tabelle = await gesetzeswerteTabelle(scope.knex);
  const werteAm = (datum: string) => {
    try {
      return tabelle(datum);
    } catch (err) {
      if (err instanceof GesetzeswertFehlt) return null;
      throw err;
    }
  };
  const heute = today();
  return (rows, existing, fields) => rows.map((r): Settled => {
    const stored = existing.get(r.nr) ?? null;
    const before = stored as (Nachweis & Meta) | null;
    // An update changes the file's fields and keeps the others as stored (a column the file lacks).
    const input = (stored ? { ...stored, ...pick(r.values, fields) } : r.values) as Nachweis;
    const errors: FieldError[] = [];
    let produktgruppe: Produktgruppe | null = null;
    for (const field of REFERENCES) {
      const nr = input[field];
      // As in the form: a reference the certificate already has is kept even if it has been deactivated since.
      if (before && before[field] === nr) continue;
      const row = checkReference(field, nr, masters[field].get(nr) ?? null, errors);
      if (field === 'produktNr' && row) produktgruppe = row.produktgruppe as Produktgruppe;
    }
    if (!produktgruppe && before && before.produktNr === input.produktNr) produktgruppe = before.produktgruppe as Produktgruppe;
    const werte = werteAm(input.ausstellungsdatum!);
    // The law values begin in 2015: an older issue date has none to compute with (and is long expired).
    if (!werte) return { problems: [{ field: 'ausstellungsdatum', message: 'nachweise-import:errors.keineGesetzeswerte', params: { datum: input.ausstellungsdatum } }] };
    const done = completeNachweis(input, before, { produktgruppe, werte, heute, anlageOptional: true });
    const nachweis = done.nachweis as Record<string, unknown>;
    // The file's fields as they would be stored (an empty group or LCV is the product's) equal the stored ones:
    // nothing is written, so nothing needs checking, and a later law value does not make the row a change.
    if (stored && !changesOf(stored, nachweis, fields).length) return { data: pick(stored, fields), fields };
    errors.push(...done.errors);
    if (errors.length) return { problems: errors };
    const warnings = warningsOf(done.nachweis);
    if (!before) return { data: defined(nachweis), fields, warnings };
    const written = [...new Set([...fields, ...FIGURES])];
    return { data: pick(nachweis, written), fields: written, warnings };
  });
}

const plan: ImportPlan = {
  entity: entity.resource,
  cfg: entity,
  start: nachweisChecks,
  auditKind: 'bewegungsdaten.import',
  // Each certificate is audited as one entered by hand is (bewegungsdaten.nachweise.create / .update).
  recordAuditKind: 'bewegungsdaten.nachweise',
  keepsValues: true,
};

/**
 * Reads, checks and classifies the file and stages its valid rows; nothing is written to the certificates.
 * `t` speaks the user's language (messages), `translators` every language (accepted headers and labels).
 */
export function preview(scope: TenantScope, actor: RequestActor, file: UploadedFile, t: Translate, translators: Translate[]): Promise<Staging> {
  return previewImport(scope, actor, plan, file, labelledHeader(entity, t, translators, READING));
}

/** The user's staged certificate import, or 404 (unknown, someone else's, another import's, or older than an hour). */
export const findImport = (scope: TenantScope, actor: RequestActor, token: string): Promise<Staging> => findStaged(scope, actor, token, [entity.resource]);

/** Writes every staged row in one transaction, or nothing (see the engine). */
export const commit = (scope: TenantScope, actor: RequestActor, token: string): Promise<Counts> => commitImport(scope, actor, plan, token);
