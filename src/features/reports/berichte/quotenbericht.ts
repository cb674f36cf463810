// Quotenbericht: per calendar year, the energy the tenant delivered out of its quota-obligated locations, the
// reference emissions, the obligation at the year's quota (a dated law value), the GHG saving achieved and the
// surplus or shortfall (src/domain/quotenbericht.ts, §37a BImSchG). Deliveries and posts are read month by month
// with a pause between months.
import { alsKurztext, dez, plus, type Dez } from '../../../domain/dezimal.js';
import { gueltigeZeilen, quoteAus } from '../../../domain/gesetzeswerte.js';
import { isLcvEinheit } from '../../../domain/fuels.js';
import { lieferungEnergie, quotenbericht, type Lieferenergie, type Quotenjahr } from '../../../domain/quotenbericht.js';
import type { Einsparposten } from '../../../domain/thg-anzeige.js';
import type { Knex } from 'knex';
import type { ReportContext, ReportDefinition } from '../definition.js';
import { datumText, gesetzeswerte, gesetzeswertZeilen, lieferungFilter, wertAm, type Gesetzeszeile } from './thg-posten.js';
import { lcvJeEinheit, postengruppen } from '../../thg-anzeige/repo.js';

const L = (key: string) => `reports:spalten.quotenbericht.${key}`;
const E = (key: string) => `reports:katalog.quotenbericht.erlaeuterung.${key}`;

type Roh = Record<string, unknown>;

/** A month in slices of at most eight days (1–8, 9–16, 17–24, 25–end). */
export function wochen(monat: { von: string; bis: string }): { von: string; bis: string }[] {
  const out: { von: string; bis: string }[] = [];
  const monatsteil = monat.von.slice(0, 8);
  for (const [a, b] of [[1, 8], [9, 16], [17, 24], [25, 31]]) {
    const von = `${monatsteil}${String(a).padStart(2, '0')}`;
    const bis = `${monatsteil}${String(b).padStart(2, '0')}`;
    const lo = von < monat.von ? monat.von : von;
    const hi = bis > monat.bis ? monat.bis : bis;
    if (lo <= hi) out.push({ von: lo, bis: hi });
  }
  return out;
}

/** Adds the energy of every outbound delivery (fossil and bio) from `von` to `bis` to its day's sum. */
async function energieJeTag(ctx: ReportContext, filter: (qb: Knex.QueryBuilder) => void, { von, bis }: { von: string; bis: string }, jeTag: Map<string, Dez>): Promise<void> {
  const q = ctx.scope.leftJoin(ctx.scope.table('ablieferungen', 'a'), 'produkte', 'p', (j) => j.on('p.nr', 'a.produkt_nr'))
    .where('a.storniert', false).whereBetween('a.datum', [von, bis])
    .groupBy('a.datum', 'a.einheit', 'a.produktgruppe', 'a.biogehalt', 'p.lcv', 'p.lcv_einheit')
    .select('a.datum', 'a.einheit', 'a.produktgruppe', 'a.biogehalt', 'p.lcv', 'p.lcv_einheit')
    .sum({ menge: 'a.menge' });
  filter(q);
  for (const r of (await q) as Roh[]) {
    const mj = lieferungEnergie({
      menge: String(r.menge),
      einheit: r.einheit === 'kg' ? 'kg' : 'L',
      produktgruppe: String(r.produktgruppe),
      biogehalt: r.biogehalt == null ? null : String(r.biogehalt),
      lcv: r.lcv == null ? null : String(r.lcv),
      lcvEinheit: isLcvEinheit(r.lcv_einheit) ? r.lcv_einheit : null,
    });
    const datum = String(r.datum);
    jeTag.set(datum, plus(jeTag.get(datum) ?? dez('0'), dez(mj)));
  }
}

export const quotenberichtReport: ReportDefinition<Quotenjahr> = {
  id: 'quotenbericht',
  parameter: ['startDate', 'endDate', 'standort'],
  pflicht: ['startDate', 'endDate'],
  formate: ['json', 'csv', 'xlsx', 'pdf'],
  columns: [
    { key: 'jahr', label: L('jahr') },
    { key: 'von', label: L('von'), kind: 'date', csvOnly: true },
    { key: 'bis', label: L('bis'), kind: 'date', csvOnly: true },
    { key: 'energieMJ', label: L('energieMJ'), kind: 'number', digits: 0 },
    { key: 'bioEnergieMJ', label: L('bioEnergieMJ'), kind: 'number', digits: 0 },
    { key: 'referenzT', label: L('referenzT'), kind: 'number', digits: 3 },
    { key: 'quote', label: L('quote'), kind: 'number', digits: 2 },
    { key: 'pflichtT', label: L('pflichtT'), kind: 'number', digits: 3 },
    { key: 'einsparungT', label: L('einsparungT'), kind: 'number', digits: 3 },
    { key: 'erfuellungProzent', label: L('erfuellungProzent'), kind: 'number', digits: 2 },
    { key: 'saldoT', label: L('saldoT'), kind: 'number', digits: 3 },
  ],
  summen: [
    { key: 'energieMJ', label: L('energieMJ'), digits: 0 },
    { key: 'bioEnergieMJ', label: L('bioEnergieMJ'), digits: 0 },
    { key: 'referenzT', label: L('referenzT'), digits: 3 },
    { key: 'pflichtT', label: L('pflichtT'), digits: 3 },
    { key: 'einsparungT', label: L('einsparungT'), digits: 3 },
    { key: 'erfuellungProzent', label: L('erfuellungProzent'), digits: 2 },
    { key: 'saldoT', label: L('saldoT'), digits: 3 },
  ],
  async run(ctx) {
    const von = ctx.params.startDate!;
    const bis = ctx.params.endDate!;
    const werte = await gesetzeswerte(ctx, ['basiswert', 'quote']);
    const basiswert = wertAm(werte, 'basiswert');
    const filter = lieferungFilter(ctx, true);
    const lieferungen: Lieferenergie[] = [];
    const posten: Einsparposten[] = [];
    for (const [i, monat] of ctx.monate.entries()) {
      const jeTag = new Map<string, Dez>();
      // Every delivery of a slice is read and summed in one statement, which holds the embedded database for its
      // duration: slices of about a week keep that short (measured in docs/decisions.md).
      for (const woche of wochen(monat)) {
        await energieJeTag(ctx, filter, woche, jeTag);
        await ctx.pause(i, ctx.monate.length);
      }
      for (const [datum, mj] of jeTag) lieferungen.push({ datum, energieMJ: alsKurztext(mj), basiswert: basiswert.wert(datum) });
      for (const g of await postengruppen(ctx.scope, monat.von, monat.bis, filter)) {
        posten.push({ datum: g.datum, menge: g.menge, lcv: lcvJeEinheit(g), e: g.e, basiswert: basiswert.wert(g.datum) });
      }
      await ctx.pause(i + 1, ctx.monate.length);
    }
    if (basiswert.angewandt.size === 0) basiswert.wert(bis);
    const { zeilen, summe } = quotenbericht(lieferungen, posten, (jahr) => quoteAus(werte, jahr), von, bis);
    const quoten = new Map<string, Gesetzeszeile>();
    for (const z of zeilen) {
      // The row quoteAus took: the year's quota as the law stands at the year's end.
      const row = gueltigeZeilen(werte.filter((w) => w.art === 'quote'), `${String(z.jahr).padStart(4, '0')}-12-31`).find((w) => w.bezug === String(z.jahr));
      if (row) quoten.set(`${row.bezug}|${row.gueltigAb}`, row);
    }
    return {
      rows: zeilen,
      sums: { ...summe },
      erlaeuterungen: [
        { key: E('grundlage') },
        { key: E('energie') },
        { key: E('referenz') },
        { key: E('pflicht') },
        { key: E('einsparung') },
        { key: E('erfuellung') },
        ...gesetzeswertZeilen(E('basiswert'), basiswert.angewandt, ctx.lang),
        ...[...quoten.values()].map((q) => ({ key: E('quote'), params: { jahr: q.bezug, wert: q.wert, gueltigAb: datumText(q.gueltigAb, ctx.lang), quelle: q.kommentar ?? '' } })),
        ...zeilen.filter((z) => z.quote == null).map((z) => ({ key: E('ohneQuote'), params: { jahr: z.jahr } })),
      ],
    };
  },
};
