// The delivery's Nachweisbescheinigung as a PDF: what the tenant (issuer) hands the recipient of an outbound
// delivery as proof of the sustainable quantity in it. One A4 page (more when many proofs): issuer, recipient
// (the delivery's partner as the delivery saw it: its stored version), the delivery, and per assigned proof its
// quantity, share, raw material, country, scheme, E and saving, with the chain of references back to the
// supplier (proof ← certificate ← the certificates it was split from ← supplier and supplier's certificate).
// Written with pdfkit in the PDF standard fonts, as the list export (src/records/export/pdf.ts); numbers and
// dates in the document's language. A delivery without assignments has no proof to print: 409, never an
// empty document.
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import type { Einheit } from '../../domain/units.js';
import { anteil, bioDerLieferung } from '../../domain/zuordnung.js';
import { ProblemError } from '../../errors.js';
import { formatter, type Formatter } from '../../http/format.js';
import { pdfText } from '../../records/export/pdf.js';
import { atVersion } from '../bewegungsdaten/references.js';
import { nbStore } from '../nachweisbescheinigungen/config.js';
import { nachweisStore, type Nachweis } from '../nachweise/nachweis.js';
import { referenzKette } from '../nachweise/teilung.js';
import { zuLieferung, type Ablieferung } from './ablieferung.js';

type PDFKit = typeof import('pdfkit');
let loading: Promise<PDFKit> | null = null;
const pdfkit = () => (loading ??= import('pdfkit').then((m) => (m as unknown as { default: PDFKit }).default ?? m));

type T = (key: string, params?: Record<string, unknown>) => string;

interface Adresse {
  name: string;
  strasse?: string | null;
  hausNr?: string | null;
  plz?: string | null;
  stadt?: string | null;
  land?: string | null;
}

export interface NachweisbescheinigungDaten {
  aussteller: Adresse & { zertifizierungsnummer: string | null };
  empfaenger: Adresse;
  lieferung: { nr: string; datum: string; produkt: string; menge: string; einheit: Einheit; bioMenge: string };
  nachweise: {
    nachweisbescheinigungNr: string;
    nachweisNr: string;
    volumen: string;
    einheit: Einheit;
    anteil: string | null;
    rohstoff: string | null;
    anbauland: string | null;
    zertifizierungssystem: string | null;
    thg: string | null;
    einsparung: string | null;
    vorlaeufig: boolean;
    /** The certificate and the ones it was split from, nearest first. */
    kette: string[];
    lieferant: string | null;
    lieferantZertifikatNr: string | null;
  }[];
}

const str = (v: unknown) => (v == null || v === '' ? null : String(v));

/** Everything the document shows, read in the scope (the delivery must be one the scope may see). */
export async function nachweisbescheinigungDaten(scope: TenantScope, l: Ablieferung): Promise<NachweisbescheinigungDaten> {
  const lieferung = zuLieferung(l);
  const rows = (await scope.table('nachweisbescheinigungen').where({ ablieferung_nr: l.nr, storniert: false }).orderBy([{ column: 'created_at' }, { column: 'nr' }]).select('*')) as unknown as Record<string, unknown>[];
  if (!rows.length) throw new ProblemError('conflict', 'KEINE_ZUORDNUNG', 'zuordnung:errors.pdfOhneZuordnung', [], { nr: l.nr });
  const proofs = rows.map((r) => nbStore.fromRow(r));
  const certificates = new Map<string, Nachweis & Meta>();
  const rowsN = (await scope.table('nachweise').whereIn('nr', [...new Set(proofs.map((p) => p.nachweisNr))]).select('*')) as unknown as Record<string, unknown>[];
  for (const c of rowsN) {
    const n = nachweisStore.fromRow(c);
    certificates.set(n.nr, n);
  }
  const [mandant, partner, produkt] = await Promise.all([
    scope.table('mandanten').first('name', 'strasse', 'haus_nr', 'plz', 'stadt', 'land', 'zertifizierungsnummer'),
    atVersion(scope, 'partnerNr', l.partnerNr, Number(l.partnerVersion)),
    atVersion(scope, 'produktNr', l.produktNr, Number(l.produktVersion)),
  ]);
  const nachweise = [];
  for (const p of proofs) {
    const n = certificates.get(p.nachweisNr)!;
    const { vorfahren } = await referenzKette(scope, nachweisStore, n);
    // Parts carry their parent's supplier; the original certificate names it for sure.
    const ursprung = (vorfahren.at(-1) ?? n) as Record<string, unknown>;
    nachweise.push({
      nachweisbescheinigungNr: p.nr,
      nachweisNr: n.nr,
      volumen: String(p.volumen),
      einheit: p.einheit as Einheit,
      anteil: anteil(lieferung, String(p.volumen), p.einheit as Einheit),
      rohstoff: str(p.rohstoff),
      anbauland: str(p.anbauland),
      zertifizierungssystem: str(p.zertifizierungssystem),
      thg: str(p.thgEmission),
      einsparung: str(n.einsparung),
      vorlaeufig: n.vorlaeufig === true,
      kette: [n.nr, ...vorfahren.map((v) => String(v.nr))],
      lieferant: str(ursprung.lieferant ?? n.lieferant),
      lieferantZertifikatNr: str(ursprung.lieferantZertifikatNr ?? n.lieferantZertifikatNr),
    });
  }
  return {
    aussteller: {
      name: String(mandant?.name ?? scope.mandant), strasse: mandant?.strasse, hausNr: mandant?.haus_nr, plz: mandant?.plz, stadt: mandant?.stadt, land: mandant?.land,
      zertifizierungsnummer: str(mandant?.zertifizierungsnummer),
    },
    empfaenger: { name: String(partner?.name ?? l.partnerNr), strasse: str(partner?.strasse), hausNr: str(partner?.hausNr), plz: str(partner?.plz), stadt: str(partner?.stadt), land: str(partner?.land) },
    lieferung: { nr: l.nr, datum: String(l.lieferdatum), produkt: String(produkt?.name ?? l.produktNr), menge: String(l.menge), einheit: lieferung.einheit, bioMenge: bioDerLieferung(lieferung) },
    nachweise,
  };
}

/** Numbers and dates of the document: German ones in German; in English ISO dates, which no reader misreads. */
export function pdfFormatter(lang: 'de' | 'en'): Formatter {
  return formatter({ dateFormat: lang === 'de' ? 'dd.MM.yyyy' : 'yyyy-MM-dd', timezone: 'Europe/Berlin' }, lang);
}

/** "1.234,5" with as many decimals as the value has (up to three), in the document's language. */
const menge = (fmt: Formatter, v: string) => fmt.number(v, Math.min(3, (String(Number(v)).split('.')[1] ?? '').length));

const adresse = (a: Adresse) => [a.name, [a.strasse, a.hausNr].filter(Boolean).join(' '), [a.plz, a.stadt].filter(Boolean).join(' '), a.land].filter((x) => x && String(x).trim()) as string[];

// Points (1/72 inch): A4 portrait is 595.28 × 841.89.
const MARGIN = 56;
const LABEL_WIDTH = 170;
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MUTED = '#4f5d56';
const RULE = '#75827b';

export async function nachweisbescheinigungPdf(d: NachweisbescheinigungDaten, t: T, lang: 'de' | 'en', erstellt = new Date()): Promise<Buffer> {
  const PDFDocument = await pdfkit();
  const fmt = pdfFormatter(lang);
  const titel = t('zuordnung:pdf.titel');
  const doc = new PDFDocument({
    size: 'A4', margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN }, lang: lang === 'de' ? 'de-DE' : 'en-GB', displayTitle: true, bufferPages: true,
    info: { Title: pdfText(`${titel} ${d.lieferung.nr}`), Author: pdfText(d.aussteller.name), CreationDate: erstellt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.once('end', resolve);
    doc.once('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const zeile = (label: string, wert: string) => {
    const y = doc.y;
    doc.font(BOLD).fontSize(9).fillColor('black').text(pdfText(label), MARGIN, y, { width: LABEL_WIDTH - 10 });
    const nachLabel = doc.y;
    doc.font(REGULAR).text(pdfText(wert || '–'), MARGIN + LABEL_WIDTH, y, { width: width - LABEL_WIDTH });
    doc.y = Math.max(doc.y, nachLabel) + 3;
  };
  const ueberschrift = (text: string) => {
    if (doc.y > doc.page.height - MARGIN - 120) doc.addPage();
    doc.moveDown(0.8).font(BOLD).fontSize(11).fillColor('black').text(pdfText(text), MARGIN, doc.y, { width });
    const y = doc.y + 2;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.y = y + 5;
  };

  doc.font(BOLD).fontSize(16).text(pdfText(titel), MARGIN, MARGIN, { width });
  doc.font(REGULAR).fontSize(9).fillColor(MUTED).text(pdfText(t('zuordnung:pdf.untertitel', { nr: d.lieferung.nr })), { width });

  ueberschrift(t('zuordnung:pdf.aussteller'));
  zeile(t('zuordnung:pdf.name'), adresse(d.aussteller).join('\n'));
  if (d.aussteller.zertifizierungsnummer) zeile(t('zuordnung:pdf.zertifizierungsnummer'), d.aussteller.zertifizierungsnummer);
  ueberschrift(t('zuordnung:pdf.empfaenger'));
  zeile(t('zuordnung:pdf.name'), adresse(d.empfaenger).join('\n'));

  ueberschrift(t('zuordnung:pdf.lieferung'));
  zeile(t('zuordnung:pdf.lieferungNr'), d.lieferung.nr);
  zeile(t('zuordnung:pdf.datum'), fmt.date(d.lieferung.datum));
  zeile(t('zuordnung:pdf.produkt'), d.lieferung.produkt);
  zeile(t('zuordnung:pdf.menge'), `${menge(fmt, d.lieferung.menge)} ${d.lieferung.einheit}`);
  zeile(t('zuordnung:pdf.bioMenge'), `${menge(fmt, d.lieferung.bioMenge)} ${d.lieferung.einheit}`);

  for (const [i, n] of d.nachweise.entries()) {
    ueberschrift(t('zuordnung:pdf.nachweis', { i: i + 1, nr: n.nachweisbescheinigungNr }));
    zeile(t('zuordnung:pdf.nachweisbescheinigungNr'), n.nachweisbescheinigungNr);
    zeile(t('zuordnung:pdf.nachweisNr'), n.vorlaeufig ? `${n.nachweisNr} (${t('zuordnung:pdf.vorlaeufig')})` : n.nachweisNr);
    zeile(t('zuordnung:pdf.volumen'), `${menge(fmt, n.volumen)} ${n.einheit}`);
    zeile(t('zuordnung:pdf.anteil'), n.anteil == null ? '–' : `${fmt.number(n.anteil, 2)} %`);
    zeile(t('zuordnung:pdf.rohstoff'), n.rohstoff ? t(`nachweis-pruefung:rohstoffe.${n.rohstoff}`) : '–');
    zeile(t('zuordnung:pdf.herkunftsland'), n.anbauland ? `${t(`laender:${n.anbauland}`)} (${n.anbauland})` : '–');
    zeile(t('zuordnung:pdf.system'), n.zertifizierungssystem ?? '–');
    zeile(t('zuordnung:pdf.thg'), n.thg == null ? '–' : fmt.number(n.thg, 2));
    zeile(t('zuordnung:pdf.einsparung'), n.einsparung == null ? '–' : `${fmt.number(n.einsparung, 2)} %`);
    const lieferant = n.lieferant ? (n.lieferantZertifikatNr ? `${n.lieferant} (${n.lieferantZertifikatNr})` : n.lieferant) : t('zuordnung:pdf.lieferantUnbekannt');
    zeile(t('zuordnung:pdf.kette'), [n.nachweisbescheinigungNr, ...n.kette, lieferant].join(' ← '));
  }

  // The foot of every page: when it was made, and the page.
  const range = doc.bufferedPageRange();
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    // Text in the bottom margin would make pdfkit begin a new page: the margin is lifted while the foot is written.
    doc.page.margins.bottom = 0;
    const text = t('zuordnung:pdf.fuss', { datum: fmt.dateTime(erstellt), seite: p - range.start + 1, seiten: range.count });
    doc.font(REGULAR).fontSize(7.5).fillColor(MUTED).text(pdfText(text), MARGIN, doc.page.height - MARGIN + 14, { width, lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
