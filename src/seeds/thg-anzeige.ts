// The demo's public THG display (api-contract.md): DEMO publishes it under the fixed demo link
// /{lang}/thg-anzeige/demo-thg-anzeige (a demo value like the demo passwords; real tenants get a random
// token); NORD does not publish.
//
// So that the display shows something for today as well as for the month and the year, DEMO delivers today:
// 10,000 L of biodiesel B100 (FAME) at its tank farm 1001, covered by a certificate of 10,000 L with E = 10 g/MJ
// and 33 MJ/L, assigned to it: the worked example of domain-notes.md, 27.753 t CO₂eq. Made with the features' own
// commands (record service, assignment), written by no user: the versions are marked as the demo's and no audit
// entries are kept. Skipped when its certificate exists already (idempotent).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import { TenantScope } from '../db/scope.js';
import { DEMO_DATA } from '../db/versioned.js';
import { ablieferungConfig } from '../features/lieferungen/ablieferungen.js';
import { nachweisConfig } from '../features/nachweise/nachweis.js';
import { heuteInDeutschland, zuordnen } from '../features/zuordnung/service.js';
import { pdfText } from '../records/export/pdf.js';
import type { CheckedUpload } from '../records/files.js';
import { recordService } from '../records/service.js';

export const DEMO_TOKEN = 'demo-thg-anzeige';
/** The certificate of today's demo delivery: its number marks the seed as done. */
export const DEMO_NACHWEIS = 'ISCC-DE-THG-DEMO-0001';

export async function seedThgAnzeige(trx: Knex.Transaction, today = new Date()): Promise<void> {
  const mandant = 'DEMO';
  if (!(await trx('mandanten').where({ mandant }).first('mandant'))) return;
  await trx('mandanten').where({ mandant }).whereNull('thg_anzeige_token').update({ thg_anzeige_token: DEMO_TOKEN, thg_anzeige_seit: today });

  await setTenant(trx, mandant);
  if (await trx('nachweise').where({ mandant, nr: DEMO_NACHWEIS }).first('nr')) return;
  const partner = await trx('tauschpartner').where({ mandant }).orderBy('nr').first('nr');
  const standort = await trx('standorte').where({ mandant, nr: '1001' }).first('nr');
  const produkt = await trx('produkte').where({ mandant, nr: 'P013' }).first('nr');
  if (!partner || !standort || !produkt) return;

  // "Today" as the display counts it: the day in Germany.
  const heute = heuteInDeutschland(today);
  const scope = new TenantScope(trx, mandant);
  const actor = { user: { id: null as unknown as number }, mandant };
  const letzte = await trx('ablieferungen').where({ mandant }).whereRaw(`nr ~ '^AL-[0-9]{6}$'`).orderBy('nr', 'desc').first('nr');
  const nr = `AL-${String(Number(String(letzte?.nr ?? 'AL-0').slice(3)) + 1).padStart(6, '0')}`;

  const lieferung = ablieferungConfig.schema.parse({
    lieferdatum: heute, menge: '10000', uomMenge: 'L', status: 'open', partnerNr: partner.nr, standortNr: standort.nr, produktNr: produkt.nr,
    typ: 'Verkauf', kommentar: 'Demo: heutige Lieferung der öffentlichen THG-Anzeige.',
  });
  await recordService(ablieferungConfig).create(scope, actor, { ...lieferung, nr });

  const zertifikat = nachweisConfig.schema.parse({
    ausstellungsdatum: heute, zeitraumVon: `${heute.slice(0, 8)}01`, zeitraumBis: heute, zertifizierungssystem: 'ISCC EU', schema: 'massenbilanz',
    redIIKonform: true, standortNr: standort.nr, produktNr: produkt.nr, menge: '10000', einheit: 'L', lcv: '33', biogehalt: '100',
    lieferungVon: heute, lieferungBis: heute, rohstoff: 'altspeiseoel', herkunftsland: 'DE', abfall: true, nachhaltig: true,
    anlageInbetriebnahme: '2019-05-01', eec: '0', el: '0', ep: '6.5', etd: '3.5', eu: '0', esca: '0', eccs: '0', eccr: '0', gesamtStandardwert: '10',
    lieferant: 'Ölmühle Nord GmbH', lieferantZertifikatNr: 'EU-ISCC-Cert-DE100-0001',
  });
  // Like every demo certificate, with its PoS as a PDF (src/seeds/nachweise.ts draws the others).
  zertifikat.datei = await posPdf(heute, [
    ['Nummer / Number', DEMO_NACHWEIS], ['Ausstellungsdatum / Date of issuance', heute.split('-').reverse().join('.')],
    ['Lieferant / Supplier', 'Ölmühle Nord GmbH (EU-ISCC-Cert-DE100-0001)'], ['Produkt / Product', 'Biodiesel B100 (FAME)'],
    ['Rohstoff / Raw material', 'Altspeiseöl / Used cooking oil'], ['Menge / Quantity', '10.000 L'], ['Energiegehalt / Energy content', '330.000 MJ'],
    ['E (g CO2eq/MJ)', '10,00'], ['Nachhaltig / Sustainable', 'ja / yes (RED II Art. 29)'],
  ]);
  await recordService(nachweisConfig).create(scope, actor, { ...zertifikat, nr: DEMO_NACHWEIS });
  await zuordnen(scope, actor, nr, { nachweisNr: DEMO_NACHWEIS, volumen: '10000' }, heute);

  // Like the other demo data: not a user's doing.
  await trx('audit_log').where({ mandant }).whereNull('benutzer_id').whereIn('entity_id', [nr, DEMO_NACHWEIS]).delete();
  for (const table of ['ablieferungen_versionen', 'nachweise_versionen', 'nachweisbescheinigungen_versionen']) {
    await trx(table).where({ mandant }).whereNull('benutzer_id').whereNull('quelle').update({ quelle: DEMO_DATA });
  }
}

/** The demo certificate's PoS: one page in the PDF standard font, its creation date the issue date (the same bytes each day). */
async function posPdf(heute: string, zeilen: [string, string][]): Promise<CheckedUpload> {
  const PDFDocument = ((m: unknown) => (m as { default?: unknown }).default ?? m)(await import('pdfkit')) as typeof import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margins: { top: 56, bottom: 56, left: 56, right: 56 }, lang: 'de-DE', info: { Title: `Nachhaltigkeitsnachweis ${DEMO_NACHWEIS}`, CreationDate: new Date(`${heute}T00:00:00Z`) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.once('end', resolve));
  doc.font('Helvetica-Bold').fontSize(15).text('Nachhaltigkeitsnachweis (Proof of Sustainability)').moveDown(1.2);
  for (const [label, wert] of zeilen) doc.font('Helvetica-Bold').fontSize(9).text(pdfText(label)).font('Helvetica').text(pdfText(wert)).moveDown(0.4);
  doc.moveDown(2).font('Helvetica-Oblique').fontSize(8).text('Demodaten: Lieferant, Zahlen und Nummer sind erfunden. / Demo data: supplier, figures and number are fictional.');
  doc.end();
  await ended;
  const content = Buffer.concat(chunks);
  return { upload: true, name: `${DEMO_NACHWEIS}.pdf`, type: 'application/pdf', size: content.length, sha256: createHash('sha256').update(content).digest('hex'), content };
}
