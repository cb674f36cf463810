// THG-Bericht: energy, emissions, GHG saving and saving in % of the certified bio quantities delivered out, per
// product group and month (src/domain/thg-bericht.ts), with the formula and the law values that applied. The posts
// are the public THG display's (thg-posten.ts), so a month's saving here is the display's.
import { thgBericht, type ThgZeile } from '../../../domain/thg-bericht.js';
import type { ReportDefinition } from '../definition.js';
import { gesetzeswerte, gesetzeswertZeilen, thgPosten, wertAm } from './thg-posten.js';

export interface ThgBerichtZeile extends ThgZeile {
  /** The product group's name in the report's language. */
  gruppe: string;
}

const L = (key: string) => `reports:spalten.thg-bericht.${key}`;
const E = (key: string) => `reports:katalog.thg-bericht.erlaeuterung.${key}`;

/** "März 2026" / "March 2026": the month as a reader says it. */
export function monatText(monat: string, lang: 'de' | 'en'): string {
  const [jahr, m] = monat.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(jahr, m - 1, 1)));
}

export const thgBerichtReport: ReportDefinition<ThgBerichtZeile & { monatText: string }> = {
  id: 'thg-bericht',
  parameter: ['startDate', 'endDate', 'standort', 'partner', 'produkt'],
  pflicht: ['startDate', 'endDate'],
  formate: ['json', 'csv', 'xlsx', 'pdf'],
  columns: [
    { key: 'monatText', label: L('monat') },
    { key: 'gruppe', label: L('produktgruppe') },
    { key: 'energieMJ', label: L('energieMJ'), kind: 'number', digits: 0 },
    { key: 'emissionenT', label: L('emissionenT'), kind: 'number', digits: 3 },
    { key: 'einsparungT', label: L('einsparungT'), kind: 'number', digits: 3 },
    { key: 'einsparungProzent', label: L('einsparungProzent'), kind: 'number', digits: 2 },
    { key: 'monat', label: L('monatIso'), csvOnly: true },
    { key: 'produktgruppe', label: L('produktgruppeCode'), csvOnly: true },
  ],
  summen: [
    { key: 'energieMJ', label: L('energieMJ'), digits: 0 },
    { key: 'emissionenT', label: L('emissionenT'), digits: 3 },
    { key: 'einsparungT', label: L('einsparungT'), digits: 3 },
    { key: 'einsparungProzent', label: L('einsparungProzent'), digits: 2 },
  ],
  async run(ctx) {
    const werte = await gesetzeswerte(ctx, ['basiswert', 'fossiler_vergleichswert']);
    const basiswert = wertAm(werte, 'basiswert');
    const vergleichswert = wertAm(werte, 'fossiler_vergleichswert');
    const posten = (await thgPosten(ctx)).map((p) => ({ ...p, basiswert: basiswert.wert(p.datum), vergleichswert: vergleichswert.wert(p.datum) }));
    const { zeilen, summe } = thgBericht(posten);
    // Without deliveries the explanation still names the values in force at the period's end.
    for (const w of [basiswert, vergleichswert]) if (w.angewandt.size === 0 && ctx.params.endDate) w.wert(ctx.params.endDate);
    return {
      rows: zeilen.map((z) => ({ ...z, monatText: monatText(z.monat, ctx.lang), gruppe: ctx.t(`produkte:gruppen.${z.produktgruppe}`) })),
      sums: { ...summe },
      erlaeuterungen: [
        { key: E('grundlage') },
        { key: E('energie') },
        { key: E('emissionen') },
        { key: E('einsparung') },
        { key: E('prozent') },
        ...gesetzeswertZeilen(E('basiswert'), basiswert.angewandt, ctx.lang),
        ...gesetzeswertZeilen(E('vergleichswert'), vergleichswert.angewandt, ctx.lang),
        { key: E('rundung') },
      ],
    };
  },
};
