// Mengenbilanz per location and product over a period: the physical check an auditor makes first.
//   Anfangsbestand  the recorded Bestand latest on or before the day before startDate (none recorded: 0)
//   Zugang/Abgang   Einlieferungen/Ablieferungen dated in the period, not cancelled, in litres
//   Storniert       cancelled deliveries of the period, left out, only counted
//   rechnerischer Endbestand = Anfangsbestand + Zugang − Abgang (src/domain/mengenbilanz.ts)
//   erfasster Endbestand     the recorded Bestand latest on or before endDate
//   Differenz                = erfasster − rechnerischer Endbestand
// Bestände are recorded in litres; deliveries in kilograms are converted with their product group's density.
// The deliveries are summed by the database a month at a time (ctx.monate), with a pause after each, so a year
// of 100,000 deliveries never holds the embedded database (or the event loop) for long.
import { mengenbilanz, vortag, type Bewegung } from '../../../domain/mengenbilanz.js';
import type { ReportDefinition } from '../definition.js';
import { gefiltert, literSql, namenVon, summe } from './gemeinsam.js';

export interface MengenbilanzZeile {
  standortNr: string;
  standort: string;
  produktNr: string;
  produkt: string;
  anfangsDatum: string | null;
  anfangsbestand: string;
  zugaengeAnzahl: number;
  zugang: string;
  abgaengeAnzahl: number;
  abgang: string;
  stornierteAnzahl: number;
  endbestandBerechnet: string;
  endDatum: string | null;
  endbestandErfasst: string | null;
  differenz: string | null;
}

const S = 'reports:spalten.mengenbilanz';
const liter = { kind: 'number' as const, digits: 3, suffix: () => 'L' };

export const mengenbilanzReport: ReportDefinition<MengenbilanzZeile> = {
  id: 'mengenbilanz',
  parameter: ['startDate', 'endDate', 'partner', 'standort', 'produkt'],
  pflicht: ['startDate', 'endDate'],
  formate: ['json', 'csv', 'xlsx', 'pdf'],
  columns: [
    { key: 'standortNr', label: `${S}.standortNr`, csvOnly: true },
    { key: 'standort', label: `${S}.standort` },
    { key: 'produktNr', label: `${S}.produktNr`, csvOnly: true },
    { key: 'produkt', label: `${S}.produkt` },
    { key: 'anfangsDatum', label: `${S}.anfangsDatum`, kind: 'date', csvOnly: true },
    { key: 'anfangsbestand', label: `${S}.anfangsbestand`, ...liter },
    { key: 'zugaengeAnzahl', label: `${S}.zugaengeAnzahl`, kind: 'number', csvOnly: true },
    { key: 'zugang', label: `${S}.zugang`, ...liter },
    { key: 'abgaengeAnzahl', label: `${S}.abgaengeAnzahl`, kind: 'number', csvOnly: true },
    { key: 'abgang', label: `${S}.abgang`, ...liter },
    // On screen and in the PDF the cancelled count is a sum and an explanation line, so the quantities fit beside each other.
    { key: 'stornierteAnzahl', label: `${S}.stornierteAnzahl`, kind: 'number', csvOnly: true },
    { key: 'endbestandBerechnet', label: `${S}.endbestandBerechnet`, ...liter },
    { key: 'endDatum', label: `${S}.endDatum`, kind: 'date', csvOnly: true },
    { key: 'endbestandErfasst', label: `${S}.endbestandErfasst`, ...liter },
    { key: 'differenz', label: `${S}.differenz`, ...liter },
  ],
  summen: [
    { key: 'anfangsbestand', label: `${S}.summe.anfangsbestand`, digits: 3 },
    { key: 'zugang', label: `${S}.summe.zugang`, digits: 3 },
    { key: 'abgang', label: `${S}.summe.abgang`, digits: 3 },
    { key: 'stornierteAnzahl', label: `${S}.summe.stornierteAnzahl`, digits: 0 },
    { key: 'endbestandBerechnet', label: `${S}.summe.endbestandBerechnet`, digits: 3 },
    { key: 'endbestandErfasst', label: `${S}.summe.endbestandErfasst`, digits: 3 },
    { key: 'differenz', label: `${S}.summe.differenz`, digits: 3 },
  ],

  async run(ctx) {
    const { scope, params } = ctx;
    const { knex } = scope;
    const startDate = params.startDate!;
    const endDate = params.endDate!;
    const total = ctx.monate.length + 1;

    /** The recorded Bestand per location and product, the latest on or before `tag`. */
    const bestaende = async (tag: string) => {
      const qb = gefiltert(scope, scope.table('bestaende', 'x'), 'x', params, { partner: false })
        .distinctOn(['x.standort_nr', 'x.produkt_nr'])
        .where('x.datum', '<=', tag)
        .orderBy([{ column: 'x.standort_nr' }, { column: 'x.produkt_nr' }, { column: 'x.datum', order: 'desc' }, { column: 'x.created_at', order: 'desc' }])
        .select('x.standort_nr as standortNr', 'x.produkt_nr as produktNr', 'x.datum', 'x.volumen');
      const rows = (await qb) as { standortNr: string; produktNr: string; datum: string; volumen: string }[];
      return new Map(rows.map((r) => [`${r.standortNr}\u0000${r.produktNr}`, r]));
    };
    const anfang = await bestaende(vortag(startDate));
    const ende = await bestaende(endDate);
    await ctx.pause(1, total);

    const bewegungen = new Map<string, Bewegung[]>();
    const summiert = async (tabelle: 'einlieferungen' | 'ablieferungen', von: string, bis: string) => {
      const rows = (await gefiltert(scope, scope.table(tabelle, 'b'), 'b', params)
        .whereBetween('b.datum', [von, bis])
        .groupBy('b.standort_nr', 'b.produkt_nr', 'b.storniert')
        .select('b.standort_nr as standortNr', 'b.produkt_nr as produktNr', 'b.storniert', knex.raw('count(*)::int as anzahl'), knex.raw(`sum(${literSql('b')}) as liter`))) as {
        standortNr: string; produktNr: string; storniert: boolean; anzahl: number; liter: string;
      }[];
      for (const r of rows) {
        const key = `${r.standortNr}\u0000${r.produktNr}`;
        const list = bewegungen.get(key) ?? [];
        list.push({ richtung: tabelle === 'einlieferungen' ? 'zugang' : 'abgang', menge: r.liter, einheit: 'L', storniert: r.storniert, anzahl: Number(r.anzahl) });
        bewegungen.set(key, list);
      }
    };
    for (const [i, monat] of ctx.monate.entries()) {
      await summiert('einlieferungen', monat.von, monat.bis);
      await summiert('ablieferungen', monat.von, monat.bis);
      await ctx.pause(i + 2, total);
    }

    // Every location and product with deliveries in the period; without a partner, also those with a Bestand.
    const keys = new Set([...bewegungen.keys(), ...(params.partner ? [] : [...anfang.keys(), ...ende.keys()])]);
    const [standorte, produkte] = await Promise.all([namenVon(scope, 'standorte'), namenVon(scope, 'produkte')]);
    const rows: MengenbilanzZeile[] = [...keys].map((key) => {
      const [standortNr, produktNr] = key.split('\u0000');
      const a = anfang.get(key);
      const e = ende.get(key);
      const b = mengenbilanz({ anfangsbestand: a?.volumen ?? null, bewegungen: bewegungen.get(key) ?? [], endbestandErfasst: e?.volumen ?? null });
      return {
        standortNr, standort: standorte.get(standortNr) ?? standortNr, produktNr, produkt: produkte.get(produktNr) ?? produktNr,
        anfangsDatum: a?.datum ?? null, anfangsbestand: b.anfangsbestand, zugaengeAnzahl: b.zugaengeAnzahl, zugang: b.zugang,
        abgaengeAnzahl: b.abgaengeAnzahl, abgang: b.abgang, stornierteAnzahl: b.stornierteAnzahl, endbestandBerechnet: b.endbestandBerechnet,
        endDatum: e?.datum ?? null, endbestandErfasst: b.endbestandErfasst, differenz: b.differenz,
      };
    });
    const collator = new Intl.Collator(ctx.lang);
    rows.sort((x, y) => collator.compare(x.standort, y.standort) || x.standortNr.localeCompare(y.standortNr) || collator.compare(x.produkt, y.produkt) || x.produktNr.localeCompare(y.produktNr));

    const sums: Record<string, string | null> = {};
    for (const key of ['anfangsbestand', 'zugang', 'abgang', 'endbestandBerechnet', 'endbestandErfasst', 'differenz'] as const) sums[key] = summe(rows, key) ?? '0.000';
    sums.stornierteAnzahl = String(rows.reduce((n, r) => n + r.stornierteAnzahl, 0));
    const ohneAnfang = rows.filter((r) => r.anfangsDatum == null).length;
    return {
      rows,
      sums,
      erlaeuterungen: [
        { key: `${S}.erlaeuterung.formel` },
        { key: `${S}.erlaeuterung.anfang`, params: { tag: vortag(startDate) } },
        { key: `${S}.erlaeuterung.einheit` },
        { key: `${S}.erlaeuterung.storniert`, params: { anzahl: sums.stornierteAnzahl } },
        ...(ohneAnfang ? [{ key: `${S}.erlaeuterung.ohneAnfang`, params: { anzahl: ohneAnfang } }] : []),
        ...(params.partner ? [{ key: `${S}.erlaeuterung.partner` }] : []),
      ],
    };
  },
};
