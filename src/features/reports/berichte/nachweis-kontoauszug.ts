// Nachweis-Kontoauszug (certificate account statement, as Nabisy's): per certificate at the user's locations (an
// original or a Teilnachweis), what it held at the period's start, received, split off (the parts' numbers),
// assigned (the deliveries' numbers, else the proof's) and held at the end (src/domain/kontoauszug.ts, where the
// dates of the movements are defined). Movements are read month by month with a pause between months; what
// happened before the period comes summed per certificate in one statement.
import type { Knex } from 'knex';
import { isProduktgruppe, REFERENZWERTE } from '../../../domain/fuels.js';
import { kontoauszug, type Bewegung, type Konto, type KontoZeile } from '../../../domain/kontoauszug.js';
import { partsIn } from '../../../http/format.js';
import type { ReportContext, ReportDefinition } from '../definition.js';

export interface KontoauszugZeile extends Omit<KontoZeile, 'teile' | 'zuordnungen'> {
  /** The certificate a Teilnachweis was split off, or null for an original. */
  stammNr: string | null;
  zugangAm: string;
  standortNr: string;
  produktNr: string;
  einheit: string;
  teile: string;
  zuordnungen: string;
}

/** The day in Germany of a moment (bookings are dated by the law's calendar, as "today" is everywhere). */
export function tagInDeutschland(at: Date | string): string {
  const p = partsIn('Europe/Berlin', new Date(at));
  return `${p.year}-${p.month}-${p.day}`;
}

/** The moment a day begins in Germany (00:00 Europe/Berlin), so a period's bookings are a range of timestamps. */
export function tagesbeginn(datum: string): Date {
  const [y, m, d] = datum.split('-').map(Number);
  // Germany is UTC+1 or UTC+2: one of the two candidates is midnight there.
  for (const stunden of [1, 2]) {
    const kandidat = new Date(Date.UTC(y, m - 1, d) - stunden * 3_600_000);
    const p = partsIn('Europe/Berlin', kandidat);
    if (`${p.year}-${p.month}-${p.day}` === datum && p.hour === '00' && p.minute === '00') return kandidat;
  }
  throw new RangeError(`no midnight in Germany on ${datum}`);
}

const naechsterTag = (datum: string) => new Date(Date.parse(`${datum}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const L = (key: string) => `reports:spalten.nachweis-kontoauszug.${key}`;
const E = (key: string) => `reports:katalog.nachweis-kontoauszug.erlaeuterung.${key}`;
const mengeSuffix = (r: KontoauszugZeile) => r.einheit;

/** The certificates the statement may list: at the user's locations and the parameters' location and product, not cancelled. */
function konten(ctx: ReportContext): Knex.QueryBuilder {
  const q = ctx.scope.table('nachweise', 'n').where('n.storniert', false);
  ctx.scope.atStandorte(q, 'n.standort_nr');
  if (ctx.params.standort) q.where('n.standort_nr', ctx.params.standort);
  if (ctx.params.produkt) q.where('n.produkt_nr', ctx.params.produkt);
  return q;
}

type Roh = Record<string, unknown>;

/** The live movements out of the listed certificates booked in [ab, bis): parts split off and root proofs made from them. */
async function bewegungen(ctx: ReportContext, ab: Date | null, bis: Date, summiert: boolean): Promise<Bewegung[]> {
  const auswahl = () => konten(ctx).select('n.nr');
  const zeit = (q: Knex.QueryBuilder, spalte: string) => {
    if (ab) q.where(spalte, '>=', ab);
    return q.where(spalte, '<', bis);
  };
  const teile = zeit(ctx.scope.table('nachweise', 't').where('t.storniert', false).whereIn('t.referenz_nachweis_nr', auswahl()), 't.created_at');
  // A proof split off another proof took its volume from that proof, not from the certificate.
  const nbs = zeit(ctx.scope.table('nachweisbescheinigungen', 'nb').where('nb.storniert', false).whereNull('nb.referenz_nachweis_nr').whereIn('nb.nachweis_nr', auswahl()), 'nb.created_at');
  if (summiert) {
    const [t, b] = await Promise.all([
      teile.groupBy('t.referenz_nachweis_nr').select({ nachweis_nr: 't.referenz_nachweis_nr' }).sum({ menge: 't.menge' }).max({ at: 't.created_at' })
        .select(ctx.scope.knex.raw(`string_agg(t.nr, ', ' order by t.created_at, t.nr) as referenz`)),
      nbs.groupBy('nb.nachweis_nr').select('nb.nachweis_nr').sum({ menge: 'nb.volumen' }).max({ at: 'nb.created_at' })
        .select(ctx.scope.knex.raw(`string_agg(coalesce(nb.ablieferung_nr, nb.nr), ', ' order by nb.created_at, nb.nr) as referenz`)),
    ]) as [Roh[], Roh[]];
    return [
      ...t.map((r): Bewegung => ({ nachweisNr: String(r.nachweis_nr), art: 'teilung', datum: tagInDeutschland(r.at as string), menge: String(r.menge), referenz: String(r.referenz) })),
      ...b.map((r): Bewegung => ({ nachweisNr: String(r.nachweis_nr), art: 'zuordnung', datum: tagInDeutschland(r.at as string), menge: String(r.menge), referenz: String(r.referenz) })),
    ];
  }
  const [t, b] = await Promise.all([
    teile.orderBy(['t.created_at', 't.nr']).select('t.referenz_nachweis_nr', 't.nr', 't.menge', 't.created_at'),
    nbs.orderBy(['nb.created_at', 'nb.nr']).select('nb.nachweis_nr', 'nb.nr', 'nb.ablieferung_nr', 'nb.volumen', 'nb.created_at'),
  ]) as [Roh[], Roh[]];
  return [
    ...t.map((r): Bewegung => ({ nachweisNr: String(r.referenz_nachweis_nr), art: 'teilung', datum: tagInDeutschland(r.created_at as string), menge: String(r.menge), referenz: String(r.nr) })),
    ...b.map((r): Bewegung => ({ nachweisNr: String(r.nachweis_nr), art: 'zuordnung', datum: tagInDeutschland(r.created_at as string), menge: String(r.volumen), referenz: String(r.ablieferung_nr ?? r.nr) })),
  ];
}

export const nachweisKontoauszugReport: ReportDefinition<KontoauszugZeile> = {
  id: 'nachweis-kontoauszug',
  parameter: ['startDate', 'endDate', 'standort', 'produkt'],
  pflicht: ['startDate', 'endDate'],
  formate: ['json', 'csv', 'xlsx', 'pdf'],
  columns: [
    { key: 'nr', label: L('nr'), href: (r, lang) => `/${lang}/bewegungsdaten/nachweise/${encodeURIComponent(r.nr)}` },
    { key: 'zugangAm', label: L('zugangAm'), kind: 'date' },
    { key: 'anfangsbestand', label: L('anfangsbestand'), kind: 'number', digits: 3, suffix: mengeSuffix },
    { key: 'zugang', label: L('zugang'), kind: 'number', digits: 3, suffix: mengeSuffix },
    { key: 'geteilt', label: L('geteilt'), kind: 'number', digits: 3, suffix: mengeSuffix },
    { key: 'zugeordnet', label: L('zugeordnet'), kind: 'number', digits: 3, suffix: mengeSuffix },
    { key: 'endbestand', label: L('endbestand'), kind: 'number', digits: 3, suffix: mengeSuffix },
    { key: 'teile', label: L('teile') },
    { key: 'zuordnungen', label: L('zuordnungen') },
    { key: 'stammNr', label: L('stammNr'), csvOnly: true },
    { key: 'einheit', label: L('einheit'), csvOnly: true },
    { key: 'standortNr', label: L('standortNr'), csvOnly: true },
    { key: 'produktNr', label: L('produktNr'), csvOnly: true },
  ],
  summen: ['anfangsbestand', 'zugang', 'geteilt', 'zugeordnet', 'endbestand'].map((key) => ({ key, label: L(`summe.${key}`), digits: 3 })),
  async run(ctx) {
    const von = ctx.params.startDate!;
    const bis = ctx.params.endDate!;
    const periodeAb = tagesbeginn(von);
    const periodeBis = tagesbeginn(naechsterTag(bis));
    // Received by the period's end: issued by then, or entered by then (a part: split by then).
    const rows = (await konten(ctx)
      .where((q) => q.where((o) => o.whereNull('n.referenz_nachweis_nr').where('n.ausstellungsdatum', '<=', bis)).orWhere('n.created_at', '<', periodeBis))
      .orderBy(['n.standort_nr', 'n.produkt_nr', 'n.nr'])
      .select('n.nr', 'n.referenz_nachweis_nr', 'n.ausstellungsdatum', 'n.created_at', 'n.menge', 'n.einheit', 'n.produktgruppe', 'n.standort_nr', 'n.produkt_nr')) as Roh[];
    const info = new Map<string, Roh & { zugangAm: string }>();
    const liste: Konto[] = rows.map((r) => {
      const eingetragen = tagInDeutschland(r.created_at as string);
      const ausgestellt = String(r.ausstellungsdatum);
      const zugangAm = r.referenz_nachweis_nr == null && ausgestellt < eingetragen ? ausgestellt : eingetragen;
      info.set(String(r.nr), { ...r, zugangAm });
      const gruppe = isProduktgruppe(r.produktgruppe) ? r.produktgruppe : 'biodiesel';
      return { nr: String(r.nr), zugangAm, menge: String(r.menge), einheit: r.einheit === 'kg' ? 'kg' : 'L', kgProL: String(REFERENZWERTE[gruppe].kgProL) };
    });
    await ctx.pause(0, ctx.monate.length + 1);
    const alle: Bewegung[] = await bewegungen(ctx, null, periodeAb, true);
    await ctx.pause(1, ctx.monate.length + 1);
    for (const [i, monat] of ctx.monate.entries()) {
      alle.push(...(await bewegungen(ctx, tagesbeginn(monat.von), tagesbeginn(naechsterTag(monat.bis)), false)));
      await ctx.pause(i + 2, ctx.monate.length + 1);
    }
    const { zeilen, summe } = kontoauszug(liste, alle, von, bis);
    return {
      rows: zeilen.map((z) => {
        const r = info.get(z.nr)!;
        return {
          ...z,
          stammNr: (r.referenz_nachweis_nr as string | null) ?? null,
          zugangAm: r.zugangAm,
          standortNr: String(r.standort_nr),
          produktNr: String(r.produkt_nr),
          einheit: String(r.einheit),
          teile: z.teile.join(', '),
          zuordnungen: z.zuordnungen.join(', '),
        };
      }),
      sums: { ...summe },
      erlaeuterungen: [
        { key: E('formel') },
        { key: E('zugang') },
        { key: E('teilung') },
        { key: E('zuordnung') },
        { key: E('storno') },
        { key: E('summen') },
      ],
    };
  },
};
