// What the THG-Bericht and the Quotenbericht share: the outbound deliveries a report's parameters select, the GHG
// saving posts of those deliveries (the public THG display's, src/features/thg-anzeige/repo.ts, so every figure of
// the portal agrees), read month by month with a pause between months, and the law values that applied.
import type { Knex } from 'knex';
import { gueltigeZeilen, GesetzeswertFehlt, type GesetzeswertArt, type GesetzeswertZeile } from '../../../domain/gesetzeswerte.js';
import { zeilen as gesetzeswertRows } from '../../gesetzeswerte/repo.js';
import { lcvJeEinheit, postengruppen } from '../../thg-anzeige/repo.js';
import type { ReportContext } from '../definition.js';

/**
 * Limits a query over outbound deliveries (alias `a`) to the user's locations and the report's parameters; with
 * `nurQuote`, to quota-obligated locations (standorte.quota).
 */
export function lieferungFilter(ctx: ReportContext, nurQuote = false): (qb: Knex.QueryBuilder) => void {
  const { params, scope } = ctx;
  return (qb) => {
    scope.atStandorte(qb, 'a.standort_nr');
    if (params.standort) qb.where('a.standort_nr', params.standort);
    if (params.partner) qb.where('a.partner_nr', params.partner);
    if (params.produkt) qb.where('a.produkt_nr', params.produkt);
    if (nurQuote) qb.whereIn('a.standort_nr', scope.table('standorte').where('quota', true).select('nr'));
  };
}

export type Gesetzeszeile = GesetzeswertZeile & { kommentar: string | null };

/** The law values of the given kinds (a few dozen rows, read once per report). */
export function gesetzeswerte(ctx: ReportContext, arten: readonly GesetzeswertArt[]): Promise<Gesetzeszeile[]> {
  return gesetzeswertRows(ctx.scope.knex, arten);
}

/** The value of one kind on a date, and the row it comes from, memoised per date. */
export function wertAm(zeilen: readonly Gesetzeszeile[], art: GesetzeswertArt): { wert(datum: string): string; angewandt: Map<string, Gesetzeszeile> } {
  const eigene = zeilen.filter((z) => z.art === art);
  const jeDatum = new Map<string, Gesetzeszeile>();
  const angewandt = new Map<string, Gesetzeszeile>();
  return {
    wert(datum) {
      let z = jeDatum.get(datum);
      if (!z) {
        z = gueltigeZeilen(eigene, datum)[0];
        if (!z) throw new GesetzeswertFehlt(art, datum);
        jeDatum.set(datum, z);
        angewandt.set(`${z.gueltigAb}|${z.wert}`, z);
      }
      return z.wert;
    },
    angewandt,
  };
}

export interface Posten {
  datum: string;
  produktgruppe: string;
  menge: string;
  lcv: string;
  e: string;
}

/** The saving posts of the selected outbound deliveries, month by month (ctx.monate), pausing after each. */
export async function thgPosten(ctx: ReportContext, nurQuote = false): Promise<Posten[]> {
  const filter = lieferungFilter(ctx, nurQuote);
  const posten: Posten[] = [];
  for (const [i, monat] of ctx.monate.entries()) {
    for (const g of await postengruppen(ctx.scope, monat.von, monat.bis, filter)) {
      posten.push({ datum: g.datum, produktgruppe: g.produktgruppe, menge: g.menge, lcv: lcvJeEinheit(g), e: g.e });
    }
    await ctx.pause(i + 1, ctx.monate.length);
  }
  return posten;
}

/** A date in an explanation line: 01.01.2015 in German, ISO in English (as the proof PDF writes them). */
export function datumText(iso: string, lang: 'de' | 'en'): string {
  return lang === 'de' ? iso.split('-').reverse().join('.') : iso;
}

/** Explanation lines naming the rows of the law values that applied: value, valid from, source. */
export function gesetzeswertZeilen(key: string, angewandt: Map<string, Gesetzeszeile>, lang: 'de' | 'en'): { key: string; params: Record<string, unknown> }[] {
  return [...angewandt.values()]
    .sort((a, b) => (a.gueltigAb < b.gueltigAb ? -1 : 1))
    .map((z) => ({ key, params: { wert: z.wert, gueltigAb: datumText(z.gueltigAb, lang), quelle: z.kommentar ?? '' } }));
}
