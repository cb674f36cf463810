// The certificates a collection carries (spec section 5: at least one): which may be put on it, the working
// table that mirrors its versioned list, and the characteristics its tab and its API show for each.
//
// A certificate may join a collection when it exists in the tenant at one of the user's locations (another
// tenant's or location's certificate is simply unknown), is not cancelled and is of the collection's product
// group. Certificates already on the collection are not checked again on every edit (a later cancellation of
// one must not block correcting a date), unless the collection's group changes: then all must fit.
import type { Produktgruppe } from '../../domain/fuels.js';
import { zertifikatGruppe } from '../../domain/lieferkette.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import type { FieldError } from '../../errors.js';
import type { ChoiceOptions } from '../../records/list/engine.js';
import { merkmaleAus } from '../nachweisbescheinigungen/config.js';
import { nachweisStore, type Nachweis } from '../nachweise/nachweis.js';
import { mengeAusMilli, mengeMilli } from '../nachweise/teilung.js';
import type { Abholung } from './store.js';

/** Problems with the certificates of a collection about to be saved, each naming the certificate (field `nachweise`). */
export async function pruefeNachweise(tx: TenantScope, nachweise: readonly string[], produktgruppe: string, schonGeprueft: readonly string[] = []): Promise<FieldError[]> {
  const neu = nachweise.filter((nr) => !schonGeprueft.includes(nr));
  if (!neu.length) return [];
  // Shared locks: a certificate cannot be cancelled or regrouped while it is being put on a collection.
  const rows = (await tx.table('nachweise').whereIn('nr', neu).forShare().select('nr', 'standort_nr', 'produktgruppe', 'storniert')) as Record<string, unknown>[];
  const byNr = new Map(rows.map((r) => [String(r.nr), r]));
  const errors: FieldError[] = [];
  for (const nr of neu) {
    const row = byNr.get(nr);
    if (!row || !tx.allowsStandort(String(row.standort_nr))) errors.push({ field: 'nachweise', message: 'abholungen:errors.nachweisUnbekannt', params: { nr } });
    else if (row.storniert) errors.push({ field: 'nachweise', message: 'abholungen:errors.nachweisStorniert', params: { nr } });
    else if (row.produktgruppe !== zertifikatGruppe(produktgruppe as Produktgruppe)) errors.push({ field: 'nachweise', message: 'abholungen:errors.nachweisGruppe', params: { nr, gruppe: row.produktgruppe } });
  }
  return errors;
}

/** Keeps `abholung_nachweise` in step with the collection's list, in the write's transaction: the difference only. */
export async function spiegeleNachweise(tx: TenantScope, record: Abholung & Meta): Promise<void> {
  const wanted = record.nachweise ?? [];
  const stale = tx.table('abholung_nachweise').where({ abholung_nr: record.nr });
  await (wanted.length ? stale.whereNotIn('nachweis_nr', wanted) : stale).delete();
  const have = new Set((await tx.table('abholung_nachweise').where({ abholung_nr: record.nr }).pluck('nachweis_nr')) as string[]);
  const add = wanted.filter((nr) => !have.has(nr));
  if (add.length) await tx.insert('abholung_nachweise', add.map((nr) => ({ abholung_nr: record.nr, nachweis_nr: nr })));
}

/** A certificate of a collection as its tab and its API show it (spec section 3's fields). */
export interface AbholungNachweis {
  nachweisNr: string;
  nnwAnteil: string | null;
  thgEmission: string | null;
  attributAnnexIx: boolean;
  anbauland: string | null;
  rohstoff: string | null;
  biomasseArt: string | null;
  biomasseCode: string | null;
  nnwEnergie: string | null;
  nnwProduktName: string | null;
  nnwProduktNr: string | null;
  zertifizierungssystem: string | null;
  vorlaeufig: boolean;
  /** Quantity and unit of the certificate (the figures above are over its whole quantity). */
  menge: string;
  einheit: string;
  storniert: boolean;
}

/**
 * The collection's certificates with the characteristics a proof made from each over its whole quantity would
 * carry (merkmaleAus, the one definition), in the collection's order. Read through the tenant only: a
 * collection the user may see shows all of its certificates.
 */
export async function nachweiseDerAbholung(scope: TenantScope, nrs: readonly string[]): Promise<AbholungNachweis[]> {
  if (!nrs.length) return [];
  const rows = (await scope.leftJoin(scope.table('nachweise', 'n'), 'produkte', 'p', (j) => j.on('p.nr', 'n.produkt_nr'))
    .whereIn('n.nr', nrs as string[]).select('n.*', 'p.name as produkt_name')) as Record<string, unknown>[];
  const byNr = new Map(rows.map((r) => [String(r.nr), r]));
  return nrs.flatMap((nr) => {
    const row = byNr.get(nr);
    if (!row) return [];
    const n = nachweisStore.fromRow(row) as Nachweis & Meta;
    const m = merkmaleAus(n, String(n.menge), (row.produkt_name as string | null) ?? null);
    return [{
      nachweisNr: n.nr, nnwAnteil: m.nnwAnteil, thgEmission: m.thgEmission, attributAnnexIx: m.attributAnnexIx, anbauland: m.anbauland,
      rohstoff: m.rohstoff, biomasseArt: m.biomasseArt, biomasseCode: m.biomasseCode, nnwEnergie: m.nnwEnergie, nnwProduktName: m.nnwProduktName,
      nnwProduktNr: m.nnwProduktNr, zertifizierungssystem: m.zertifizierungssystem, vorlaeufig: n.vorlaeufig === true,
      menge: String(n.menge), einheit: n.einheit, storniert: n.storniert === true,
    }];
  });
}

const label = (r: Record<string, unknown>) => `${r.nr} (${mengeAusMilli(mengeMilli(r.menge))} ${r.einheit})`;

/**
 * Certificates that may be put on a collection: not cancelled, at the user's locations, of the group when one
 * is given, newest first, at most 500. The create form offers them all (its group is not chosen yet).
 */
export async function nachweisChoices(scope: TenantScope, opts: { produktgruppe?: string; ohne?: readonly string[] } = {}): Promise<ChoiceOptions> {
  const q = scope.atStandorte(scope.table('nachweise').where('storniert', false), 'standort_nr');
  if (opts.produktgruppe) q.where('produktgruppe', zertifikatGruppe(opts.produktgruppe as Produktgruppe));
  if (opts.ohne?.length) q.whereNotIn('nr', opts.ohne as string[]);
  const rows = (await q.orderBy('ausstellungsdatum', 'desc').orderBy('nr').limit(500).select('nr', 'menge', 'einheit')) as Record<string, unknown>[];
  return rows.map((r) => ({ value: String(r.nr), label: label(r), raw: true }));
}
