// The legal values: what every computation reads (the values valid on a date) and the system administrators'
// commands (add a value from a date on, correct one, delete one not yet in force). The page and the API call
// these same functions.
//
// Reading is one query and keeps no cache: the table is a few dozen rows, and without a cache a change is seen
// at once by every process. The readers take `db` from their caller, so a computation inside a tenant
// transaction passes that transaction (the app role may read the table; the base connection may not be used
// there).
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { audit } from '../../db/audit.js';
import {
  aequivalentfaktorenAus, GesetzeswertFehlt, gesetzeswerteAus, gueltigeZeilen, nachweisAblaufAus, quoteAus, type GesetzeswertArt, type Gesetzeswerte,
} from '../../domain/gesetzeswerte.js';
import type { Aequivalentfaktor } from '../../domain/thg-anzeige.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { partsIn } from '../../http/format.js';
import { HttpError } from '../../http/errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { isSystemAdmin } from '../../permissions/index.js';
import { historyOfEntity } from '../logmeldungen/service.js';
import * as repo from './repo.js';
import { geaenderteSchluessel, pruefeWert, type Korrektur, type NeuerGesetzeswert } from './schema.js';

export type { Gesetzeswerte } from '../../domain/gesetzeswerte.js';
export type { GesetzeswertRow } from './repo.js';

/** The audit log's entity name of a row; its entries are the page's history. */
export const AUDIT_ENTITY = 'gesetzeswert';
/** The law is German: "today" is the day in Germany. */
const ZEITZONE = 'Europe/Berlin';

/** The values of the GHG computation valid on `datum` (ISO): one query. */
export async function gesetzeswerteAm(db: Knex | Knex.Transaction, datum: string): Promise<Gesetzeswerte> {
  return gesetzeswerteAus(await repo.zeilen(db, ['fossiler_vergleichswert', 'basiswert', 'schwelle']), datum);
}

/**
 * The values of the GHG computation on any date, from one query: for computing many certificates of different
 * dates at once (an import), where a query per date would be one round trip per distinct issue date.
 */
export async function gesetzeswerteTabelle(db: Knex | Knex.Transaction): Promise<(datum: string) => Gesetzeswerte> {
  const zeilen = await repo.zeilen(db, ['fossiler_vergleichswert', 'basiswert', 'schwelle']);
  const amTag = new Map<string, Gesetzeswerte>();
  return (datum) => {
    if (!amTag.has(datum)) amTag.set(datum, gesetzeswerteAus(zeilen, datum));
    return amTag.get(datum)!;
  };
}

/** The THG quota of a calendar year in % (as the law stands at the year's end, or on `stichtag`); null if none is set. */
export async function quoteImJahr(db: Knex | Knex.Transaction, jahr: number, stichtag?: string): Promise<string | null> {
  return quoteAus(await repo.zeilen(db, ['quote']), jahr, stichtag);
}

/** The ISO day on which the rest of a certificate whose period ends on `zeitraumBis` expires. */
export async function nachweisAblauf(db: Knex | Knex.Transaction, zeitraumBis: string): Promise<string> {
  return nachweisAblaufAus(await repo.zeilen(db, ['nachweis_ablauf']), zeitraumBis);
}

/**
 * nachweisAblauf for any number of periods from one query (the tracing labels many certificates at once); null
 * for a period the table has no value for.
 */
export async function nachweisAblaufTabelle(db: Knex | Knex.Transaction): Promise<(zeitraumBis: string) => string | null> {
  const zeilen = await repo.zeilen(db, ['nachweis_ablauf']);
  return (zeitraumBis) => {
    try {
      return nachweisAblaufAus(zeilen, zeitraumBis);
    } catch (err) {
      if (err instanceof GesetzeswertFehlt) return null;
      throw err;
    }
  };
}

/** The factors of the THG display's equivalents valid on `datum`, the source from each row's comment: one query. */
export async function aequivalentfaktorenAm(db: Knex | Knex.Transaction, datum: string): Promise<Aequivalentfaktor[]> {
  return aequivalentfaktorenAus(await repo.zeilen(db, ['aequivalent']), datum);
}

/** Everything that applies on one date, as GET /api/gesetzeswerte/am/{datum} answers: one query. */
export interface GesetzeswerteAmTag extends Gesetzeswerte {
  datum: string;
  /** The quota of the date's calendar year, as the law stands on the date; null when none is set. */
  quote: { jahr: number; prozent: string } | null;
  /** When the rest of a certificate whose period ends on the date expires. */
  nachweisAblauf: string;
}

export async function gesetzeswerteAmTag(db: Knex | Knex.Transaction, datum: string): Promise<GesetzeswerteAmTag> {
  const zeilen = await repo.zeilen(db);
  const jahr = Number(datum.slice(0, 4));
  const prozent = quoteAus(zeilen, jahr, datum);
  return {
    datum,
    ...gesetzeswerteAus(zeilen, datum),
    quote: prozent === null ? null : { jahr, prozent },
    nachweisAblauf: nachweisAblaufAus(zeilen, datum),
  };
}

/** A row as the audit log keeps it: its identity and its value. */
const snapshot = (r: repo.GesetzeswertRow) => ({
  art: r.art, anlageAb: r.anlageAb, jahr: r.jahr, ...(r.einheit ? { einheit: r.einheit } : {}), gueltigAb: r.gueltigAb, wert: r.wert, kommentar: r.kommentar,
});

const doppelt = () => invalid([{ field: 'gueltigAb', message: 'gesetzeswerte:errors.doppelt' }]);

export class GesetzeswerteService {
  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
  ) {}

  private requireSystemAdmin(a: RequestActor) {
    if (!isSystemAdmin(a.principal)) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  }

  /** Today in Germany (ISO): what "in force" and "in the future" are measured against. */
  heute(): string {
    const p = partsIn(ZEITZONE, new Date(this.clock.now()));
    return `${p.year}-${p.month}-${p.day}`;
  }

  list(): Promise<repo.GesetzeswertRow[]> {
    return repo.listRows(this.knex);
  }

  /** The ids of the rows in force today: one per kind and reference. */
  gueltigHeute(rows: repo.GesetzeswertRow[]): Set<number> {
    return new Set(gueltigeZeilen(rows.map((r) => ({ ...r, bezug: repo.bezugOf(r) })), this.heute()).map((r) => r.id));
  }

  async get(id: number): Promise<repo.GesetzeswertRow> {
    const row = await repo.findRow(this.knex, id);
    if (!row) throw notFound('gesetzeswerte:errors.notFound');
    return row;
  }

  /** May the row be deleted? Only while it is not yet in force. */
  loeschbar(row: repo.GesetzeswertRow): boolean {
    return row.gueltigAb > this.heute();
  }

  /** Adds a value from a date on: the normal way the law changes. */
  async create(a: RequestActor, input: NeuerGesetzeswert): Promise<repo.GesetzeswertRow> {
    this.requireSystemAdmin(a);
    const bezug = repo.bezugOf(input);
    try {
      return await this.knex.transaction(async (trx) => {
        if (await repo.exists(trx, { art: input.art, bezug, gueltigAb: input.gueltigAb })) throw doppelt();
        const id = await repo.insertRow(trx, { art: input.art, bezug, gueltigAb: input.gueltigAb, wert: input.wert, kommentar: input.kommentar ?? null, benutzerId: a.user.id });
        const created = (await repo.findRow(trx, id))!;
        await audit(trx, { kind: 'admin.gesetzeswert.create', benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: id, after: snapshot(created), ip: a.ip });
        return created;
      });
    } catch (err) {
      // Two administrators adding the same value at once: the unique key refuses the second.
      if (repo.isDuplicate(err)) throw doppelt();
      throw err;
    }
  }

  /** Corrects a row's value and comment (a typing mistake, a wrong source); its kind, reference and date stay. */
  async correct(a: RequestActor, id: number, input: Korrektur): Promise<repo.GesetzeswertRow> {
    this.requireSystemAdmin(a);
    return this.knex.transaction(async (trx) => {
      const before = await repo.findRow(trx, id, true);
      if (!before) throw notFound('gesetzeswerte:errors.notFound');
      const errors = geaenderteSchluessel(input, before);
      const wert = pruefeWert(before.art as GesetzeswertArt, input.wert);
      if ('message' in wert) errors.push({ field: 'wert', message: wert.message, params: wert.params });
      if (errors.length) throw invalid(errors, errors.some((e) => e.message === 'validation.required') ? 'errors.requiredFields' : 'errors.badRequest');
      const kommentar = input.kommentar === undefined ? before.kommentar : input.kommentar;
      if (!('ok' in wert) || (wert.ok === before.wert && kommentar === before.kommentar)) return before;
      await repo.updateRow(trx, id, before.art, { wert: wert.ok, kommentar, benutzerId: a.user.id });
      const after = (await repo.findRow(trx, id))!;
      await audit(trx, { kind: 'admin.gesetzeswert.update', benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: id, before: snapshot(before), after: snapshot(after), ip: a.ip });
      return after;
    });
  }

  /** Deletes a row not yet in force (announced by mistake); a row in force or past is history and stays. */
  async remove(a: RequestActor, id: number): Promise<void> {
    this.requireSystemAdmin(a);
    await this.knex.transaction(async (trx) => {
      const before = await repo.findRow(trx, id, true);
      if (!before) throw notFound('gesetzeswerte:errors.notFound');
      if (!this.loeschbar(before)) throw conflict('GESETZESWERT_IN_KRAFT', 'gesetzeswerte:errors.nichtLoeschbar');
      await repo.deleteRow(trx, id);
      await audit(trx, { kind: 'admin.gesetzeswert.delete', benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: id, before: snapshot(before), ip: a.ip });
    });
  }

  /** The audit entries of the table, newest first: who changed what, before and after. */
  history(limit = 100) {
    return historyOfEntity(this.knex, AUDIT_ENTITY, limit);
  }
}
