// Lieferungen je Partner: deliveries in and out per partner over a period, with their quantities and bio
// quantities (Menge × Biogehalt %, the delivery's content, else its product's), in litres; cancelled ones
// left out. Summed by the database a month at a time (ctx.monate), with a pause after each.
import { alsText, dez, gerundet, plus } from '../../../domain/dezimal.js';
import type { ReportDefinition } from '../definition.js';
import { gefiltert, literSql, namenVon, summe } from './gemeinsam.js';

export interface PartnerZeile {
  partnerNr: string;
  partner: string;
  anzahlEin: number;
  mengeEin: string;
  bioEin: string;
  anzahlAus: number;
  mengeAus: string;
  bioAus: string;
}

const S = 'reports:spalten.lieferungen-je-partner';
const liter = { kind: 'number' as const, digits: 3, suffix: () => 'L' };
const SUMMIERT = ['mengeEin', 'bioEin', 'mengeAus', 'bioAus'] as const;

export const lieferungenJePartnerReport: ReportDefinition<PartnerZeile> = {
  id: 'lieferungen-je-partner',
  parameter: ['startDate', 'endDate', 'partner', 'standort', 'produkt'],
  pflicht: ['startDate', 'endDate'],
  formate: ['json', 'csv', 'xlsx', 'pdf'],
  columns: [
    { key: 'partnerNr', label: `${S}.partnerNr` },
    { key: 'partner', label: `${S}.partner` },
    { key: 'anzahlEin', label: `${S}.anzahlEin`, kind: 'number' },
    { key: 'mengeEin', label: `${S}.mengeEin`, ...liter },
    { key: 'bioEin', label: `${S}.bioEin`, ...liter },
    { key: 'anzahlAus', label: `${S}.anzahlAus`, kind: 'number' },
    { key: 'mengeAus', label: `${S}.mengeAus`, ...liter },
    { key: 'bioAus', label: `${S}.bioAus`, ...liter },
  ],
  summen: [
    { key: 'anzahlEin', label: `${S}.summe.anzahlEin`, digits: 0 },
    { key: 'mengeEin', label: `${S}.summe.mengeEin`, digits: 3 },
    { key: 'bioEin', label: `${S}.summe.bioEin`, digits: 3 },
    { key: 'anzahlAus', label: `${S}.summe.anzahlAus`, digits: 0 },
    { key: 'mengeAus', label: `${S}.summe.mengeAus`, digits: 3 },
    { key: 'bioAus', label: `${S}.summe.bioAus`, digits: 3 },
  ],

  async run(ctx) {
    const { scope, params } = ctx;
    const { knex } = scope;
    const je = new Map<string, PartnerZeile>();
    const zeile = (partnerNr: string) => {
      let z = je.get(partnerNr);
      if (!z) je.set(partnerNr, (z = { partnerNr, partner: partnerNr, anzahlEin: 0, mengeEin: '0.000', bioEin: '0.000', anzahlAus: 0, mengeAus: '0.000', bioAus: '0.000' }));
      return z;
    };
    const add = (a: string, b: string) => alsText(gerundet(plus(dez(a), dez(b)), 3));
    const summiert = async (tabelle: 'einlieferungen' | 'ablieferungen', von: string, bis: string) => {
      const qb = gefiltert(scope, scope.table(tabelle, 'b'), 'b', params).whereBetween('b.datum', [von, bis]).where('b.storniert', false);
      scope.leftJoin(qb, 'produkte', 'p', (j) => j.on('p.nr', '=', 'b.produkt_nr'));
      const rows = (await qb
        .groupBy('b.partner_nr')
        .select(
          'b.partner_nr as partnerNr',
          knex.raw('count(*)::int as anzahl'),
          knex.raw(`sum(${literSql('b')}) as liter`),
          knex.raw(`sum(round(${literSql('b')} * coalesce(b.biogehalt, p.biogehalt, 0) / 100, 3)) as bio`),
        )) as { partnerNr: string; anzahl: number; liter: string; bio: string }[];
      for (const r of rows) {
        const z = zeile(r.partnerNr);
        if (tabelle === 'einlieferungen') {
          z.anzahlEin += Number(r.anzahl);
          z.mengeEin = add(z.mengeEin, r.liter);
          z.bioEin = add(z.bioEin, r.bio);
        } else {
          z.anzahlAus += Number(r.anzahl);
          z.mengeAus = add(z.mengeAus, r.liter);
          z.bioAus = add(z.bioAus, r.bio);
        }
      }
    };
    for (const [i, monat] of ctx.monate.entries()) {
      await summiert('einlieferungen', monat.von, monat.bis);
      await summiert('ablieferungen', monat.von, monat.bis);
      await ctx.pause(i + 1, ctx.monate.length);
    }
    const namen = await namenVon(scope, 'tauschpartner');
    const rows = [...je.values()].map((z) => ({ ...z, partner: namen.get(z.partnerNr) ?? z.partnerNr }));
    const collator = new Intl.Collator(ctx.lang);
    rows.sort((a, b) => collator.compare(a.partner, b.partner) || a.partnerNr.localeCompare(b.partnerNr));
    const sums: Record<string, string | null> = {
      anzahlEin: String(rows.reduce((n, r) => n + r.anzahlEin, 0)),
      anzahlAus: String(rows.reduce((n, r) => n + r.anzahlAus, 0)),
    };
    for (const key of SUMMIERT) sums[key] = summe(rows, key) ?? '0.000';
    return {
      rows,
      sums,
      erlaeuterungen: [{ key: `${S}.erlaeuterung.bio` }, { key: `${S}.erlaeuterung.einheit` }, { key: `${S}.erlaeuterung.storniert` }],
    };
  },
};
