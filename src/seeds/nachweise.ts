// Demo certificates (Nachweise) and proofs (Nachweisbescheinigungen) for DEMO and NORD: about 60 certificates
// and 20 proofs per tenant that tell the story of a trader's year and a half, so that every screen, status and
// warning of issue 14 can be seen with the seeded tenants:
// - certificates from some twenty (fictional) suppliers across schemes, raw materials and countries, at the
//   tenant's tank farms and depots, for bio products whose group fits the raw material; some provisional;
//   plants in all three threshold bands;
// - stories: one below its threshold and marked not sustainable (rapeseed with only the Annex V default values),
//   one cancelled, one with each warning of the sanity checks (eec for a waste, parts ≠ total, density, negative
//   el, an imported old certificate without plant date, a saving above 99 % with a CO2 credit);
// - splits (parts TN-… from the number range `teilnachweise`), one part undone, and proofs NB-… made from
//   certificates (volume taken from their rest), some split, two used up by their parts, one cancelled.
//
// Every figure is the real code's: each certificate goes through `completeNachweis` with the law values of its
// issue date (a certificate the checks would refuse fails the seed), parts get `nachweisTeil`/`nbTeil`, proofs
// `merkmaleAus`, as the split and proof actions do. What happens to a record after it is entered (split, proof
// taken, undo, cancellation) is replayed in time order and kept as its versions (quelle 'demo'), so the
// Versionen tab tells the same story as the figures; the row holds the last state.
//
// Dates count back from the day of seeding (the sanity checks compare with the real today), and everything else
// comes from the fixed-seed generator: the same day gives the same rows. Each certificate has its PoS as a
// small PDF in `dateien` (parts share their parent's), drawn with pdfkit as the list export does.
//
// Emission values (g CO2eq/MJ) are those of RED II (Directive (EU) 2018/2001) Annex V part D, the
// disaggregated default values, "typical" and "default" (the default adds 40 % to processing), e.g. rapeseed
// biodiesel eec 32.0, ep 11.7 typical / 16.3 default, etd 1.8; used cooking oil biodiesel eec 0, ep 9.3 / 13.0,
// etd 1.9; sugar beet ethanol (natural gas boiler) 9.6, 18.8 / 26.3, 2.3; their sums match the savings of part
// A (rapeseed biodiesel 52 % typical, 47 % default). Suppliers that certify actual values (ISCC EU 205) state
// lower cultivation or processing values, varied a little from batch to batch around the figures below.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { reserveNumbers } from '../db/numbers.js';
import { setTenant } from '../db/rls.js';
import { changesOf, DEMO_DATA, normal, type Meta, type VersionedStore } from '../db/versioned.js';
import type { Produktgruppe } from '../domain/fuels.js';
import { EMISSIONSTEILE, type Emissionsteil } from '../domain/ghg.js';
import type { Gesetzeswerte } from '../domain/gesetzeswerte.js';
import type { BefundCode } from '../domain/nachweis-pruefung.js';
import { gesetzeswerteAm } from '../features/gesetzeswerte/service.js';
import { completeNachweis, nachweisStore, nachweisTeil, type Nachweis } from '../features/nachweise/nachweis.js';
import { mengeAusMilli, mengeMilli } from '../features/nachweise/teilung.js';
import { merkmaleAus, nbStore, nbTeil, type Nachweisbescheinigung } from '../features/nachweisbescheinigungen/config.js';
import { pdfText } from '../records/export/pdf.js';
import type { FileRef } from '../records/files.js';
import { ROOT } from '../paths.js';
import { insertChunked } from './bewegungsdaten.js';
import { generator } from './stammdaten.js';

type Row = Record<string, unknown>;
/** A certificate with its emission parts (the record type leaves them to the schema's index signature). */
type PoS = Nachweis & Partial<Record<Emissionsteil, string | null>>;
type Gen = ReturnType<typeof generator>;
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------------------
// Suppliers: who delivers what, from where, under which scheme, from a plant in operation since when, with
// which emission values. The German producers are partners of the demo master data.

type Werte = 'typisch' | 'standard' | 'tatsaechlich';
interface Lieferant {
  name: string;
  land: string;
  system: 'ISCC EU' | 'REDcert-EU' | '2BSvs' | 'SURE-EU' | 'Nabisy';
  zertifikat: string;
  werk: string;
  /** The plant's start of operation: its threshold band (≤ 2015-10-05: 50 %, to 2020: 60 %, from 2021: 65 %). */
  anlage: string;
  rohstoff: string;
  herkunft: string[];
  biomasseArt: string;
  /** Annex IX part and point of a waste or residue. */
  biomasseCode?: string;
  produkte: string[];
  /** eec, ep, etd in g CO2eq/MJ. */
  teile: [number, number, number];
  werte: Werte;
  transporte: Transport[];
  /** How often it is picked, relatively. */
  gewicht: number;
}
type Transport = 'lkw' | 'kesselwagen' | 'schiff' | 'teilmenge';

const BIODIESEL_RAPS = ['P013', 'P014', 'P016'];
const L: Lieferant[] = [
  // Rapeseed biodiesel. Annex V typical 32.0 + 11.7 + 1.8 = 45.5 (51.60 %): only a plant from before
  // 2015-10-06 passes with it; newer plants certify actual values.
  {
    name: 'Rapsmühle Mecklenburg GmbH', land: 'DE', system: 'REDcert-EU', zertifikat: 'REDcert-EU-DE-31258', werk: 'Ölmühle Schwerin-Görries (DE)',
    anlage: '2011-03-15', rohstoff: 'raps', herkunft: ['DE'], biomasseArt: 'Rapssaat', produkte: [...BIODIESEL_RAPS, 'P024'],
    teile: [32.0, 11.7, 1.8], werte: 'typisch', transporte: ['lkw', 'kesselwagen'], gewicht: 4,
  },
  {
    name: 'Oberrhein Biodiesel GmbH', land: 'DE', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-DE105-40012345', werk: 'Werk Karlsruhe Rheinhafen (DE)',
    anlage: '2017-06-01', rohstoff: 'raps', herkunft: ['DE', 'FR'], biomasseArt: 'Rapssaat', produkte: BIODIESEL_RAPS,
    teile: [23.4, 9.6, 1.5], werte: 'tatsaechlich', transporte: ['kesselwagen', 'schiff'], gewicht: 4,
  },
  {
    name: 'Biocarburants de Picardie SAS', land: 'FR', system: '2BSvs', zertifikat: '2BS010427', werk: 'Usine de Compiègne (FR)',
    anlage: '2022-09-12', rohstoff: 'raps', herkunft: ['FR'], biomasseArt: 'Graines de colza (Rapssaat)', produkte: ['P013', 'P014'],
    teile: [18.9, 9.1, 1.9], werte: 'tatsaechlich', transporte: ['kesselwagen', 'schiff'], gewicht: 2,
  },
  {
    name: 'Rzepak Energia Sp. z o.o.', land: 'PL', system: 'REDcert-EU', zertifikat: 'REDcert-EU-PL-20417', werk: 'Zakład Kruszwica (PL)',
    anlage: '2014-05-20', rohstoff: 'raps', herkunft: ['PL', 'UA'], biomasseArt: 'Rzepak (Rapssaat)', produkte: ['P013', 'P016'],
    teile: [32.0, 11.7, 1.8], werte: 'typisch', transporte: ['kesselwagen', 'lkw'], gewicht: 2,
  },
  {
    name: 'Donau Biodiesel GmbH', land: 'AT', system: 'REDcert-EU', zertifikat: 'REDcert-EU-AT-10882', werk: 'Werk Enns Hafen (AT)',
    anlage: '2016-01-15', rohstoff: 'raps', herkunft: ['AT'], biomasseArt: 'Rapssaat', produkte: ['P013', 'P014'],
    teile: [22.8, 10.2, 1.4], werte: 'tatsaechlich', transporte: ['kesselwagen'], gewicht: 2,
  },
  // Used cooking oil (Annex IX part B a): no cultivation; biodiesel typical 9.3 + 1.9, default 13.0 + 1.9;
  // HVO 10.2 + 1.7; from Asia the sea freight raises etd.
  {
    name: 'Heidekraft Biokraftstoffe GmbH', land: 'DE', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-DE105-40023871', werk: 'Werk Lüneburg (DE)',
    anlage: '2019-02-01', rohstoff: 'altspeiseoel', herkunft: ['DE', 'AT'], biomasseArt: 'Altspeiseöl (UCO)', biomasseCode: 'IX-B-a', produkte: ['P015', 'P013', 'P016'],
    teile: [0, 8.9, 1.6], werte: 'tatsaechlich', transporte: ['lkw', 'kesselwagen', 'teilmenge'], gewicht: 5,
  },
  {
    name: 'Greasecycle Europe B.V.', land: 'NL', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-NL220-30045512', werk: 'Botlek Terminal, Rotterdam (NL)',
    anlage: '2021-06-30', rohstoff: 'altspeiseoel', herkunft: ['NL', 'ES', 'FR'], biomasseArt: 'Used cooking oil (UCO)', biomasseCode: 'IX-B-a', produkte: ['P017', 'P018', 'P019', 'P020'],
    teile: [0, 10.2, 1.7], werte: 'typisch', transporte: ['schiff', 'kesselwagen'], gewicht: 4,
  },
  {
    name: 'Ecoaceites Levante S.L.', land: 'ES', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-ES216-20031877', werk: 'Planta de Sagunto (ES)',
    anlage: '2016-04-11', rohstoff: 'altspeiseoel', herkunft: ['ES'], biomasseArt: 'Aceite de cocina usado (UCO)', biomasseCode: 'IX-B-a', produkte: ['P015', 'P013'],
    teile: [0, 13.0, 1.9], werte: 'standard', transporte: ['schiff'], gewicht: 2,
  },
  {
    name: 'Jiangsu Greenway Renewable Oils Co., Ltd.', land: 'CN', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-CN201-10078234', werk: 'Zhangjiagang Port (CN)',
    anlage: '2020-08-01', rohstoff: 'altspeiseoel', herkunft: ['CN'], biomasseArt: 'Used cooking oil (UCO)', biomasseCode: 'IX-B-a', produkte: ['P015', 'P017', 'P019'],
    teile: [0, 9.8, 4.4], werte: 'tatsaechlich', transporte: ['schiff'], gewicht: 3,
  },
  // Animal fat of categories 1 and 2 (Annex IX part B b): biodiesel typical 13.6 + 1.7, HVO 14.5 + 1.5.
  {
    name: 'Fettschmelze Oldenburger Land GmbH', land: 'DE', system: 'REDcert-EU', zertifikat: 'REDcert-EU-DE-30519', werk: 'Werk Cloppenburg (DE)',
    anlage: '2013-09-01', rohstoff: 'tierfett', herkunft: ['DE', 'NL'], biomasseArt: 'Tierfett Kategorie 1 (Talg)', biomasseCode: 'IX-B-b', produkte: ['P013', 'P016'],
    teile: [0, 13.6, 1.7], werte: 'typisch', transporte: ['lkw', 'kesselwagen'], gewicht: 2,
  },
  {
    name: 'Grünkraft Raffinerie GmbH', land: 'DE', system: 'Nabisy', zertifikat: 'EU-ISCC-Cert-DE105-40031190', werk: 'Raffinerie Merseburg (DE)',
    anlage: '2023-03-01', rohstoff: 'tierfett', herkunft: ['DE', 'PL'], biomasseArt: 'Tierfett Kategorie 1 und 2', biomasseCode: 'IX-B-b', produkte: ['P019', 'P018', 'P017'],
    teile: [0, 14.5, 1.5], werte: 'typisch', transporte: ['kesselwagen', 'lkw'], gewicht: 3,
  },
  // POME (Annex IX part A g), a residue of palm oil mills: shipped from South-East Asia.
  {
    name: 'Johor Palm Residues Sdn. Bhd.', land: 'MY', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-MY216-60012298', werk: 'Pasir Gudang (MY)',
    anlage: '2019-11-01', rohstoff: 'pome', herkunft: ['MY'], biomasseArt: 'Palm oil mill effluent (POME)', biomasseCode: 'IX-A-g', produkte: ['P017', 'P019'],
    teile: [0, 11.6, 6.8], werte: 'tatsaechlich', transporte: ['schiff'], gewicht: 2,
  },
  {
    name: 'PT Sumatera Residu Hijau', land: 'ID', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-ID201-50034417', werk: 'Dumai (ID)',
    anlage: '2021-02-01', rohstoff: 'pome', herkunft: ['ID'], biomasseArt: 'Palm oil mill effluent (POME)', biomasseCode: 'IX-A-g', produkte: ['P013', 'P017'],
    teile: [0, 12.4, 7.1], werte: 'tatsaechlich', transporte: ['schiff'], gewicht: 1,
  },
  // Sunflower (typical 26.1 + 11.8 + 2.1 = 40.0, 57.45 %) and soy (21.2 + 12.1 + 8.9 = 42.2, 55.11 %).
  {
    name: 'Dnipro Sunoil LLC', land: 'UA', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-UA101-10056610', werk: 'Ölwerk Saporischschja, Verladung Izmail (UA)',
    anlage: '2022-04-15', rohstoff: 'sonnenblume', herkunft: ['UA'], biomasseArt: 'Sonnenblumensaat', produkte: ['P013', 'P025'],
    teile: [16.9, 9.8, 3.2], werte: 'tatsaechlich', transporte: ['schiff', 'kesselwagen'], gewicht: 2,
  },
  {
    name: 'Rosario Biocombustibles S.A.', land: 'AR', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-AR201-10041185', werk: 'Puerto San Lorenzo (AR)',
    anlage: '2010-11-01', rohstoff: 'soja', herkunft: ['AR'], biomasseArt: 'Sojabohnen', produkte: ['P013'],
    teile: [21.2, 12.1, 8.9], werte: 'typisch', transporte: ['schiff'], gewicht: 1,
  },
  // Ethanol. Sugar beet typical 9.6 + 18.8 + 2.3 = 30.7 (natural gas boiler) or 9.6 + 9.7 + 2.3 = 21.6 (biogas
  // from slop); maize with natural gas CHP typical 25.5 + 14.8 + 2.2 = 42.5 (54.79 %); cane 17.1 + 1.3 + 9.7.
  {
    name: 'Altmark Bioenergie GmbH', land: 'DE', system: 'REDcert-EU', zertifikat: 'REDcert-EU-DE-31744', werk: 'Werk Stendal-Arneburg (DE)',
    anlage: '2008-09-01', rohstoff: 'zuckerruebe', herkunft: ['DE'], biomasseArt: 'Zuckerrüben', produkte: ['P022', 'P023', 'P021'],
    teile: [9.6, 18.8, 2.3], werte: 'typisch', transporte: ['kesselwagen', 'lkw', 'teilmenge'], gewicht: 3,
  },
  {
    name: "Sucrerie de l'Aisne Énergies SAS", land: 'FR', system: '2BSvs', zertifikat: '2BS010311', werk: 'Usine de Origny (FR)',
    anlage: '2021-10-01', rohstoff: 'zuckerruebe', herkunft: ['FR'], biomasseArt: 'Betteraves sucrières (Zuckerrüben)', produkte: ['P022', 'P023'],
    teile: [9.6, 9.7, 2.3], werte: 'typisch', transporte: ['kesselwagen'], gewicht: 2,
  },
  {
    name: 'Emsland Bio-Ethanol GmbH', land: 'DE', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-DE105-40019963', werk: 'Werk Meppen (DE)',
    anlage: '2018-05-01', rohstoff: 'weizen', herkunft: ['DE', 'PL'], biomasseArt: 'Futterweizen', produkte: ['P022', 'P021'],
    teile: [18.5, 9.4, 2.2], werte: 'tatsaechlich', transporte: ['lkw', 'kesselwagen'], gewicht: 3,
  },
  {
    name: 'Alföld Bioetanol Zrt.', land: 'HU', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-HU201-10027741', werk: 'Szolnok (HU)',
    anlage: '2012-06-01', rohstoff: 'mais', herkunft: ['HU', 'UA'], biomasseArt: 'Körnermais', produkte: ['P022', 'P021'],
    teile: [25.5, 14.8, 2.2], werte: 'typisch', transporte: ['kesselwagen'], gewicht: 2,
  },
  {
    name: 'Prairie Grain Ethanol LLC', land: 'US', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-US201-10065530', werk: 'Terminal Houston (US)',
    anlage: '2018-05-01', rohstoff: 'mais', herkunft: ['US'], biomasseArt: 'Corn (Körnermais)', produkte: ['P022'],
    teile: [18.6, 12.1, 4.7], werte: 'tatsaechlich', transporte: ['schiff'], gewicht: 1,
  },
  {
    name: 'Usina São Jerônimo Bioenergia S.A.', land: 'BR', system: 'ISCC EU', zertifikat: 'EU-ISCC-Cert-BR201-10052276', werk: 'Porto de Santos (BR)',
    anlage: '2016-07-01', rohstoff: 'zuckerrohr', herkunft: ['BR'], biomasseArt: 'Cana-de-açúcar (Zuckerrohr)', produkte: ['P022'],
    teile: [17.1, 1.3, 9.7], werte: 'typisch', transporte: ['schiff'], gewicht: 1,
  },
  // Straw (Annex IX part A e): a residue, so no cultivation emissions from its collection on.
  {
    name: 'Lignoferm Niederbayern GmbH', land: 'DE', system: 'SURE-EU', zertifikat: 'SURE-EU-DE-000318', werk: 'Werk Straubing-Sand (DE)',
    anlage: '2021-11-01', rohstoff: 'agrarreststoffe', herkunft: ['DE', 'AT'], biomasseArt: 'Weizenstroh', biomasseCode: 'IX-A-e', produkte: ['P022', 'P021'],
    teile: [0, 7.2, 2.4], werte: 'tatsaechlich', transporte: ['lkw', 'teilmenge'], gewicht: 2,
  },
];
const lieferant = (name: string) => L.find((l) => l.name === name)!;

/** The number a scheme gives a PoS (≤ 32 characters, letters, digits, dot, hyphen, underscore). */
function posNummer(g: Gen, l: Lieferant, jahr: number): string {
  const yy = String(jahr % 100).padStart(2, '0');
  const n = (digits: number) => String(g.int(1, 10 ** digits - 1)).padStart(digits, '0');
  switch (l.system) {
    case 'ISCC EU': return `ISCC-${l.land}-${yy}-${n(6)}`;
    case 'REDcert-EU': return `RC-EU-${yy}-${n(6)}`;
    case '2BSvs': return `2BS-${l.land}-${yy}-${n(5)}`;
    case 'SURE-EU': return `SURE-${l.land}-${yy}-${n(5)}`;
    case 'Nabisy': return `NNW-DE-${yy}-${n(7)}`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Dates (ISO, UTC as the other seeds count) and amounts.

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`);
const plusTage = (isoDay: string, tage: number) => iso(ms(isoDay) + tage * DAY);
function quartal(isoDay: string): [string, string] {
  const d = new Date(ms(isoDay));
  const q = Math.floor(d.getUTCMonth() / 3);
  return [iso(Date.UTC(d.getUTCFullYear(), q * 3, 1)), iso(Date.UTC(d.getUTCFullYear(), q * 3 + 3, 0))];
}
const milli = (n: number | string) => mengeMilli(String(n));
/** A quantity as the numeric(18,3) columns give it back. */
const scale3 = (m: bigint) => {
  const s = mengeAusMilli(m);
  const [i, f = ''] = s.split('.');
  return `${i}.${f.padEnd(3, '0')}`;
};
const dez1 = (v: number) => (Math.round(v * 10) / 10).toFixed(1);

function mengeFuer(g: Gen, transport: Transport, einheit: 'L' | 'kg'): number {
  const kg = einheit === 'kg' ? 0.85 : 1;
  const [von, bis] = { lkw: [22_000, 34_500], kesselwagen: [55_000, 96_000], schiff: [110_000, 200_000], teilmenge: [5_000, 14_000] }[transport];
  return Math.round(g.int(von, bis) * kg);
}

// ---------------------------------------------------------------------------------------------------------
// What happens to records after they are entered, replayed in time order (state and versions in memory).

interface Stand {
  at: Date;
  rest: bigint;
  storniert: boolean;
}
interface Zertifikat {
  nr: string;
  daten: Nachweis;
  menge: bigint;
  rest: bigint;
  storniert: boolean;
  staende: Stand[];
  teile: Zertifikat[];
  stamm: Zertifikat | null;
  /** Whether it is the PoS document's own record (a part shares its parent's file). */
  pdf: boolean;
}
interface Bescheinigung {
  nr: string;
  zertifikat: Zertifikat;
  lieferdatum: string;
  kommentar: string | null;
  volumen: bigint;
  rest: bigint;
  storniert: boolean;
  staende: Stand[];
  teile: Bescheinigung[];
  stamm: Bescheinigung | null;
}
type Mengig = Zertifikat | Bescheinigung;

const stand = (r: Mengig, at: Date) => r.staende.push({ at, rest: r.rest, storniert: r.storniert });
function nehmen(r: Mengig, menge: bigint, was: string) {
  if (r.storniert || menge > r.rest) throw new Error(`demo data: ${was} takes ${mengeAusMilli(menge)} of ${r.nr}, which has ${mengeAusMilli(r.rest)} left${r.storniert ? ' and is cancelled' : ''}`);
  r.rest -= menge;
}
const unbenutzt = (r: Mengig) => !r.storniert && r.rest === ('menge' in r ? r.menge : r.volumen);

interface Ereignis {
  at: Date;
  seq: number;
  run: () => void;
}

// ---------------------------------------------------------------------------------------------------------

interface Standort {
  nr: string;
  name: string;
  strasse: string;
  haus_nr: string;
  plz: string;
  stadt: string;
}
interface Produkt {
  nr: string;
  name: string;
  produktgruppe: Produktgruppe;
  biogehalt: string;
  lcv_einheit: string;
}

const EMPFAENGER: Record<string, string> = { DEMO: 'Demo Energiehandel GmbH', NORD: 'Nordsee Mineralöl AG' };
const SEEDS: Record<string, number> = { DEMO: 20261128, NORD: 20261129 };
/** Regular certificates per tenant besides the stories (seven parts come from splits). */
const REGULAER = 46;

/** The stories of issue 14: the warnings, the one below its threshold, the cancelled one. */
type Geschichte = 'nichtNachhaltig' | 'storno' | BefundCode;
const ERWARTET: Partial<Record<Geschichte, BefundCode>> = {
  EEC_BEI_ABFALL: 'EEC_BEI_ABFALL', SUMME_WEICHT_AB: 'SUMME_WEICHT_AB', DICHTE_WEICHT_AB: 'DICHTE_WEICHT_AB',
  EL_NEGATIV: 'EL_NEGATIV', ANLAGE_UNBEKANNT: 'ANLAGE_UNBEKANNT', EINSPARUNG_HOCH: 'EINSPARUNG_HOCH',
};

/** Demo certificates and proofs for each tenant that has none yet. */
export async function seedNachweise(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  const heute = today.toISOString().slice(0, 10);
  // One query per issue date (gesetzeswerteAm), shared by the tenants.
  const werte = new Map<string, Promise<Gesetzeswerte>>();
  const werteAm = (datum: string) => {
    if (!werte.has(datum)) werte.set(datum, gesetzeswerteAm(trx, datum));
    return werte.get(datum)!;
  };
  for (const mandant of mandanten) {
    await setTenant(trx, mandant);
    if (await trx('nachweise').where({ mandant }).first('nr')) continue;
    const standorte: Standort[] = await trx('standorte').where({ mandant, status: 'aktiv' }).orderBy('nr').select('nr', 'name', 'strasse', 'haus_nr', 'plz', 'stadt');
    const produkte: Produkt[] = await trx('produkte').where({ mandant }).whereIn('produktgruppe', ['biodiesel', 'hvo', 'bioethanol', 'pflanzenoel']).select('nr', 'name', 'produktgruppe', 'biogehalt', 'lcv_einheit');
    const lager = standorte.filter((s) => !/Tankstelle/.test(s.name));
    if (!lager.length || !produkte.length) continue;
    await seedTenant(trx, { mandant, heute, today, lager, produkte, werteAm, seed: SEEDS[mandant] ?? 20261130 });
  }
}

interface TenantInput {
  mandant: string;
  heute: string;
  today: Date;
  lager: Standort[];
  produkte: Produkt[];
  werteAm: (datum: string) => Promise<Gesetzeswerte>;
  seed: number;
}

async function seedTenant(trx: Knex.Transaction, input: TenantInput): Promise<void> {
  const { mandant, heute, lager } = input;
  const g = generator(input.seed);
  const produktNach = new Map(input.produkte.map((p) => [p.nr, p]));
  const gestern = plusTage(heute, -1);
  /** A moment on a day (working hours), never later than now. */
  const zeitpunkt = (tag: string) => new Date(Math.min(ms(tag) + (7 * 60 + g.int(0, 600)) * 60_000, input.today.getTime() - 60_000));
  const ohneSpaeter = (tag: string) => (tag > gestern ? gestern : tag);

  // Locations: the first tank farms and depots carry most (the demo logins see 1001–1003).
  const lagerGewichte = lager.flatMap((s, i) => Array(i < 2 ? 4 : i < 4 ? 2 : 1).fill(s) as Standort[]);
  const lieferantGewichte = L.flatMap((l) => Array(l.gewicht).fill(l) as Lieferant[]);
  const nummern = new Set<string>();
  const empfangsort = (s: Standort) => `${s.name}, ${s.strasse} ${s.haus_nr}, ${s.plz} ${s.stadt}`;

  /** A certificate's input as the form would send it, before completeNachweis. */
  function zertifikat(l: Lieferant, alterTage: number, over: Partial<PoS> & { produktNr?: string; transport?: Transport } = {}): Nachweis {
    const produkt = produktNach.get(over.produktNr ?? g.pick(l.produkte))!;
    const einheit = produkt.lcv_einheit === 'MJ/kg' ? 'kg' : 'L';
    const transport = over.transport ?? g.pick(l.transporte);
    const ausstellung = plusTage(heute, -alterTage);
    const bis = plusTage(ausstellung, -g.int(0, 6));
    const [zeitraumVon, zeitraumBis] = quartal(bis);
    const dauer = transport === 'schiff' ? g.int(2, 12) : transport === 'kesselwagen' ? g.int(0, 3) : 0;
    const von = plusTage(bis, -dauer) < zeitraumVon ? zeitraumVon : plusTage(bis, -dauer);
    let nr = posNummer(g, l, Number(ausstellung.slice(0, 4)));
    while (nummern.has(nr)) nr = posNummer(g, l, Number(ausstellung.slice(0, 4)));
    nummern.add(nr);
    // Actual values vary a little from batch to batch; typical and default values are the annex's.
    const schwankt = l.werte === 'tatsaechlich';
    const [eec, ep, etd] = l.teile.map((v, i) => (schwankt && v > 0 ? dez1(v * (1 + g.int(-30, 30) / 1000) + (i === 2 ? g.int(-2, 2) / 10 : 0)) : dez1(v)));
    const e = [eec, ep, etd].reduce((a, b) => a + Number(b), 0);
    const menge = mengeFuer(g, transport, einheit);
    const bio = Number(produkt.biogehalt);
    // Density of the delivered product (its group's Annex III value is the reference); a blend's lies between.
    const dichteBasis = { biodiesel: 0.883, hvo: 0.779, bioethanol: 0.789, pflanzenoel: 0.92, diesel: 0.837, benzin: 0.744 }[produkt.produktgruppe];
    // A blend's density is measured against its group's reference too, and lies up to 5 % from it: left empty.
    const dichte = bio < 100 && produkt.produktgruppe !== 'bioethanol' ? null : dichteBasis;
    const mitLcv = einheit === 'L' && bio === 100 && g.int(1, 5) === 1;
    const lcv = mitLcv ? { biodiesel: '32.8', hvo: '34.3', bioethanol: '21.2', pflanzenoel: '34.1' }[produkt.produktgruppe as 'hvo'] : null;
    const jahr = ausstellung.slice(0, 4);
    return {
      ausstellungsdatum: ausstellung,
      zeitraumVon,
      zeitraumBis,
      zertifizierungssystem: l.system,
      schema: g.int(1, 8) === 1 ? 'segregation' : 'massenbilanz',
      referenzPosNr: g.int(1, 2) === 1 ? `${l.land}-PoS-${jahr}-${String(g.int(1, 99_999)).padStart(5, '0')}` : null,
      vorlaeufig: false,
      redIIKonform: true,
      zusatzinfo: null,
      standortNr: g.pick(lagerGewichte).nr,
      produktNr: produkt.nr,
      produktgruppe: produkt.produktgruppe,
      menge: String(menge),
      einheit,
      gesamtLiefermenge: g.int(1, 3) === 1 ? String(menge * g.int(2, 4)) : null,
      dichte: dichte === null || g.int(1, 4) === 1 ? null : (dichte + g.int(-4, 4) / 1000).toFixed(3),
      lcv,
      biogehalt: String(bio),
      lieferungVon: von,
      lieferungBis: bis,
      rohstoff: l.rohstoff,
      biomasseArt: l.biomasseArt,
      biomasseCode: l.biomasseCode ?? null,
      herkunftsland: g.pick(l.herkunft),
      abfall: Boolean(l.biomasseCode),
      nachhaltig: true,
      anlageInbetriebnahme: l.anlage,
      eec, el: '0', ep, etd, eu: '0', esca: '0', eccs: '0', eccr: '0',
      waermeAllokiert: null,
      stromAllokiert: null,
      // Most PoS state the total as well; it equals the parts.
      gesamtStandardwert: g.int(1, 7) === 1 ? null : e.toFixed(2),
      lieferant: l.name,
      lieferantZertifikatNr: l.zertifikat,
      empfaenger: EMPFAENGER[mandant] ?? null,
      vertragsNr: `EK-${jahr}-${String(g.int(1, 480)).padStart(4, '0')}`,
      versandort: l.werk,
      empfangsort: null,
      ...over,
      nr,
    } as unknown as Nachweis & { nr: string };
  }

  // ---- The certificates: regular ones spread over the last 18 months, then the stories. ----
  const eingaben: { n: Nachweis & { nr: string }; geschichte?: Geschichte; anlageOptional?: boolean }[] = [];
  // Every supplier once (so each tenant has every raw material, scheme and country), the rest by weight; issue
  // dates about every twelve days, shuffled over the suppliers.
  const lieferanten = [...L, ...Array.from({ length: REGULAER - L.length }, () => g.pick(lieferantGewichte))];
  const alter = g.sample(Array.from({ length: REGULAER }, (_, i) => 3 + Math.round(((i + 0.5) * 530) / REGULAER) + g.int(0, 4)), REGULAER);
  // The newest wait for the supplier's final certificate (three of the five newest).
  const neueste = [...alter].sort((a, b) => a - b).slice(0, 5);
  for (let i = 0; i < REGULAER; i++) {
    const l = lieferanten[i];
    const n = zertifikat(l, alter[i], i < L.length ? { herkunftsland: l.herkunft[0] } : {}) as Nachweis & { nr: string };
    if ([0, 1, 3].some((k) => neueste[k] === alter[i])) Object.assign(n, { vorlaeufig: true, zusatzinfo: 'Vorläufiger Nachweis: endgültiger PoS des Lieferanten angefordert.' });
    eingaben.push({ n });
  }
  const story = (geschichte: Geschichte, l: string, alterTage: number, over: Partial<PoS> & { produktNr?: string; transport?: Transport }, anlageOptional = false) =>
    eingaben.push({ n: zertifikat(lieferant(l), alterTage + g.int(0, 6), over) as Nachweis & { nr: string }, geschichte, anlageOptional });
  // Rapeseed biodiesel with only the Annex V default values: 32.0 + 16.3 + 1.8 = 50.10 g, 46.70 % < 50 %.
  story('nichtNachhaltig', 'Rzepak Energia Sp. z o.o.', 121, {
    produktNr: 'P013', eec: '32.0', ep: '16.3', etd: '1.8', gesamtStandardwert: '50.10', nachhaltig: false, redIIKonform: false, vorlaeufig: false,
    zusatzinfo: 'Nur Standardwerte nach RED II Anhang V: Mindesteinsparung verfehlt, nicht als nachhaltig anrechenbar (nur physische Ware).',
  });
  story('storno', 'Heidekraft Biokraftstoffe GmbH', 64, { produktNr: 'P015', zusatzinfo: 'Doppelt erfasst (siehe Lieferschein), storniert.' });
  // A waste with cultivation emissions stated: the supplier counted its collection as eec.
  story('EEC_BEI_ABFALL', 'Jiangsu Greenway Renewable Oils Co., Ltd.', 212, {
    produktNr: 'P015', eec: '1.2', ep: '9.8', etd: '4.4', gesamtStandardwert: '15.40', zusatzinfo: 'Lieferant weist für die Sammlung eec aus; Rückfrage gestellt.',
  });
  // The total printed on the PoS (31.70) is not the sum of its parts (30.70): E comes from the parts.
  story('SUMME_WEICHT_AB', 'Altmark Bioenergie GmbH', 302, { produktNr: 'P022', gesamtStandardwert: '31.70', zusatzinfo: 'Gesamtwert auf dem PoS weicht von der Summe der Einzelwerte ab.' });
  // Diesel's density on an HVO certificate.
  story('DICHTE_WEICHT_AB', 'Greasecycle Europe B.V.', 95, { produktNr: 'P017', dichte: '0.838', zusatzinfo: 'Dichte laut PoS 0,838 kg/L: Wert für fossilen Diesel? Beim Lieferanten angefragt.' });
  // Sunflowers from restored degraded land: the bonus of RED II Annex V C point 8 makes el negative.
  story('EL_NEGATIV', 'Dnipro Sunoil LLC', 176, {
    produktNr: 'P013', el: '-8.3', gesamtStandardwert: null, zusatzinfo: 'Anbau auf wiederhergestellten degradierten Flächen (Bonus nach RED II Anhang V C Nr. 8).',
  });
  // Taken over from the former system: no plant date, only the total; the strictest threshold (65 %) applies.
  story('ANLAGE_UNBEKANNT', 'Heidekraft Biokraftstoffe GmbH', 497, {
    produktNr: 'P015', anlageInbetriebnahme: null, eec: null, el: null, ep: null, etd: null, eu: null, esca: null, eccs: null, eccr: null, gesamtStandardwert: '12.40',
    zusatzinfo: 'Aus dem Altsystem übernommen (Import): Inbetriebnahme der Anlage nicht angegeben.',
  }, true);
  // Straw ethanol whose fermentation CO2 replaces fossil CO2 (eccr): E 0.50, a saving of 99.47 %.
  story('EINSPARUNG_HOCH', 'Lignoferm Niederbayern GmbH', 41, {
    produktNr: 'P022', eec: '0', ep: '6.9', etd: '2.7', eccr: '9.1', gesamtStandardwert: '0.50', zusatzinfo: 'Gärungs-CO2 abgeschieden und als technisches CO2 verwendet (eccr).',
  });

  // ---- Complete each one with the law values of its issue date, exactly as the form and the API do. ----
  const zertifikate: Zertifikat[] = [];
  const geschichten = new Map<Geschichte, Zertifikat>();
  for (const { n, geschichte, anlageOptional } of eingaben) {
    const produkt = produktNach.get(n.produktNr)!;
    n.empfangsort = empfangsort(lager.find((s) => s.nr === n.standortNr)!);
    const done = completeNachweis(n, null, { produktgruppe: produkt.produktgruppe, werte: await input.werteAm(n.ausstellungsdatum!), heute, anlageOptional });
    if (done.errors.length) throw new Error(`demo data: certificate ${n.nr} of ${mandant} would be refused: ${JSON.stringify(done.errors)}`);
    const codes = (done.nachweis.hinweise ?? []).map((h) => h.code);
    const erwartet = geschichte ? ERWARTET[geschichte] : undefined;
    if (erwartet ? !codes.includes(erwartet) : codes.length) throw new Error(`demo data: certificate ${n.nr} of ${mandant} has the warnings [${codes}], expected [${erwartet ?? ''}]`);
    const menge = milli(done.nachweis.menge!);
    const z: Zertifikat = { nr: n.nr, daten: { ...done.nachweis, referenzNachweisNr: null, storniert: false }, menge, rest: menge, storniert: false, staende: [], teile: [], stamm: null, pdf: true };
    zertifikate.push(z);
    if (geschichte) geschichten.set(geschichte, z);
  }

  // ---- What happened afterwards, in time order. ----
  const ereignisse: Ereignis[] = [];
  const spaeter = (tag: string, run: () => void) => {
    const at = zeitpunkt(ohneSpaeter(tag));
    ereignisse.push({ at, seq: ereignisse.length, run: () => run() });
    return at;
  };
  const eingang = new Map<Zertifikat, string>();
  for (const z of zertifikate) {
    // Entered a few days after it was issued.
    const tag = ohneSpaeter(plusTage(z.daten.ausstellungsdatum!, g.int(0, 3)));
    eingang.set(z, tag);
    const at = zeitpunkt(tag);
    ereignisse.push({ at, seq: ereignisse.length, run: () => stand(z, at) });
  }
  let tn = 0;
  let nb = 0;
  const teilnachweise: Zertifikat[] = [];
  const bescheinigungen: Bescheinigung[] = [];
  const teilen = (z: Zertifikat, tag: string, mengen: number[]) => {
    const at = spaeter(tag, () => {
      for (const m of mengen) {
        const teil: Zertifikat = { nr: `TN-${++tn}`, daten: z.daten, menge: milli(m), rest: milli(m), storniert: false, staende: [], teile: [], stamm: z, pdf: false };
        nehmen(z, teil.menge, `split ${teil.nr}`);
        stand(teil, at);
        z.teile.push(teil);
        teilnachweise.push(teil);
      }
      stand(z, at);
    });
  };
  const rueckgaengig = (teilVon: () => Zertifikat, tag: string) => {
    const at = spaeter(tag, () => {
      const teil = teilVon();
      if (!unbenutzt(teil)) throw new Error(`demo data: ${teil.nr} is used and cannot be undone`);
      teil.stamm!.rest += teil.menge;
      stand(teil.stamm!, at);
      Object.assign(teil, { storniert: true, rest: 0n });
      stand(teil, at);
    });
  };
  const stornieren = (z: Zertifikat, tag: string) => {
    const at = spaeter(tag, () => {
      if (!unbenutzt(z)) throw new Error(`demo data: ${z.nr} is used and cannot be cancelled`);
      Object.assign(z, { storniert: true, rest: 0n });
      stand(z, at);
    });
  };
  /** A proof of `anteil` (per mille) of what is left of the certificate when it is made; 1000: all of it. */
  const bescheinigung = (von: () => Zertifikat, tag: string, anteil: number, kommentar: string | null): (() => Bescheinigung) => {
    let made: Bescheinigung | null = null;
    const at = spaeter(tag, () => {
      const z = von();
      const volumen = anteil >= 1000 ? z.rest : milli(Math.max(1000, Math.round((Number(z.rest / 1000n) * anteil) / 1000 / 100) * 100));
      nehmen(z, volumen, `proof NB-${nb + 1}`);
      const b: Bescheinigung = { nr: `NB-${++nb}`, zertifikat: z, lieferdatum: ohneSpaeter(tag), kommentar, volumen, rest: volumen, storniert: false, staende: [], teile: [], stamm: null };
      stand(b, at);
      stand(z, at);
      bescheinigungen.push(b);
      made = b;
    });
    return () => made!;
  };
  const nbTeilen = (von: () => Bescheinigung, tag: string, anteile: number[]) => {
    const at = spaeter(tag, () => {
      const b = von();
      let summe = 0n;
      anteile.forEach((a, i) => {
        // The last part of a proof used up takes what is left to the litre.
        const m = a === 0 && i === anteile.length - 1 ? b.rest - summe : milli(Math.round((Number(b.volumen / 1000n) * a) / 1000));
        summe += m;
        const teil: Bescheinigung = { ...b, nr: `NB-${++nb}`, volumen: m, rest: m, storniert: false, staende: [], teile: [], stamm: b };
        stand(teil, at);
        b.teile.push(teil);
        bescheinigungen.push(teil);
      });
      nehmen(b, summe, `split of ${b.nr}`);
      stand(b, at);
    });
  };
  const nbStornieren = (b: () => Bescheinigung, tag: string) => {
    const at = spaeter(tag, () => {
      const x = b();
      if (!unbenutzt(x)) throw new Error(`demo data: ${x.nr} is used and cannot be cancelled`);
      x.zertifikat.rest += x.volumen;
      stand(x.zertifikat, at);
      Object.assign(x, { storniert: true, rest: 0n });
      stand(x, at);
    });
  };

  // Regular certificates old enough for what follows, oldest first.
  const regulaer = zertifikate.filter((z) => ![...geschichten.values()].includes(z));
  const alt = regulaer.filter((z) => eingang.get(z)! <= plusTage(heute, -45)).sort((a, b) => (eingang.get(a)! < eingang.get(b)! ? -1 : 1));
  const [t1, t2, t3, t4, ...uebrige] = g.sample(alt.filter((z) => !z.daten.vorlaeufig), alt.length);
  const nach = (z: Zertifikat, min: number, max: number) => plusTage(eingang.get(z)!, g.int(min, max));

  // Splits: a ship's cargo into three parts (one of them undone later), two into two and one.
  const s1 = nach(t1, 2, 10);
  teilen(t1, s1, [0.25, 0.2, 0.15].map((f) => Math.round(Number(t1.menge / 1000n) * f)));
  rueckgaengig(() => t1.teile[2], plusTage(s1, g.int(3, 12)));
  bescheinigung(() => t1.teile[0], plusTage(s1, g.int(2, 9)), 600, 'Teilmenge aus Teilnachweis für Ablieferung an Tankstellenkunden.');
  teilen(t2, nach(t2, 3, 15), [0.4, 0.3].map((f) => Math.round(Number(t2.menge / 1000n) * f)));
  teilen(t3, nach(t3, 1, 8), [Math.round(Number(t3.menge / 1000n) * 0.5)]);
  teilen(t4, nach(t4, 5, 20), [Math.round(Number(t4.menge / 1000n) * 0.35)]);
  bescheinigung(() => t4, nach(t4, 22, 40), 500, null);

  // Proofs from other certificates: one takes all that is left; three are split (two of them used up by their
  // parts); one is cancelled and its volume returns.
  const quellen = uebrige.slice(0, 13);
  quellen.forEach((z, i) => {
    const tag = nach(z, 1, 30);
    const kommentar = i % 3 === 0 ? `Zuordnung zu Ablieferungen ${['Hamburg', 'Hannover', 'Bremen', 'Kiel'][i % 4]} (Quote ${tag.slice(0, 4)}).` : null;
    if (i === 0) bescheinigung(() => z, tag, 1000, 'Gesamte Restmenge übernommen.');
    else if (i === 1) nbTeilen(bescheinigung(() => z, tag, 700, kommentar), plusTage(tag, g.int(1, 6)), [600, 0]);
    else if (i === 2) nbTeilen(bescheinigung(() => z, tag, 900, kommentar), plusTage(tag, g.int(2, 9)), [400, 350, 0]);
    else if (i === 3) nbTeilen(bescheinigung(() => z, tag, 800, kommentar), plusTage(tag, g.int(1, 5)), [300]);
    else if (i === 4) {
      nbStornieren(bescheinigung(() => z, tag, 400, 'Falsches Lieferdatum erfasst, storniert und neu angelegt.'), plusTage(tag, g.int(1, 4)));
      bescheinigung(() => z, plusTage(tag, 5), 400, null);
    } else bescheinigung(() => z, tag, g.int(3, 9) * 100, kommentar);
  });
  stornieren(geschichten.get('storno')!, plusTage(eingang.get(geschichten.get('storno')!)!, g.int(1, 5)));

  ereignisse.sort((a, b) => a.at.getTime() - b.at.getTime() || a.seq - b.seq);
  for (const e of ereignisse) e.run();

  // ---- The numbers of the parts and proofs from the tenant's number ranges (later ones continue them). ----
  const tnBasis = await reserveNumbers(trx, mandant, 'teilnachweise', tn);
  const nbBasis = await reserveNumbers(trx, mandant, 'nachweisbescheinigungen', nb);
  const umnummern = (r: Mengig, basis: number) => (r.nr = `${r.nr.replace(/\d+$/, '')}${basis + Number(r.nr.replace(/^\D+/, ''))}`);
  if (tnBasis) teilnachweise.forEach((t) => umnummern(t, tnBasis));
  if (nbBasis) bescheinigungen.forEach((b) => umnummern(b, nbBasis));

  // ---- The PoS documents. ----
  const dateien = await posDateien(zertifikate, produktNach, mandant);
  const refs = new Map<string, FileRef>();
  if (dateien.length) {
    const ids: { id: string | number; name: string }[] = await trx('dateien')
      .insert(dateien.map((d) => ({ mandant, name: d.name, typ: 'application/pdf', groesse: d.inhalt.length, sha256: d.sha256, inhalt: d.inhalt, created_by: null, created_at: d.at })))
      .returning(['id', 'name']);
    const byName = new Map(dateien.map((d) => [d.name, d]));
    for (const { id, name } of ids) {
      const d = byName.get(name)!;
      refs.set(d.nr, { id: String(id), name, type: 'application/pdf', size: d.inhalt.length, sha256: d.sha256 });
    }
  }

  // ---- Rows and versions: certificates, then their parts (from the stored parent, as the split does). ----
  const stamm = await schreiben(trx, nachweisStore, mandant, zertifikate.map((z) => ({
    nr: z.nr, staende: z.staende, rest: 'mengeVerbleibend',
    daten: { ...z.daten, datei: refs.get(z.nr) ?? null, mengeVerbleibend: scale3(z.rest), storniert: z.storniert },
  })));
  const teileGespeichert = await schreiben(trx, nachweisStore, mandant, teilnachweise.map((t) => {
    const { nr: _nr, version: _v, updatedAt: _u, ...merkmale } = stamm.get(t.stamm!.nr)!;
    const menge = mengeAusMilli(t.menge);
    return {
      nr: t.nr, staende: t.staende, rest: 'mengeVerbleibend',
      daten: { ...merkmale, menge, mengeVerbleibend: scale3(t.rest), referenzNachweisNr: t.stamm!.nr, storniert: t.storniert, ...nachweisTeil(stamm.get(t.stamm!.nr)!, menge) } as Nachweis,
    };
  }));
  const gespeichert = new Map([...stamm, ...teileGespeichert]);

  // ---- Proofs: made from the stored certificate (merkmaleAus), their parts from the stored proof. ----
  const oben = bescheinigungen.filter((b) => !b.stamm);
  const nbGespeichert = await schreiben(trx, nbStore, mandant, oben.map((b) => {
    const z = gespeichert.get(b.zertifikat.nr)!;
    const volumen = mengeAusMilli(b.volumen);
    return {
      nr: b.nr, staende: b.staende, rest: 'volumenVerbleibend',
      daten: {
        nachweisNr: z.nr, volumen, lieferdatum: b.lieferdatum, kommentar: b.kommentar,
        ...merkmaleAus(z, volumen, produktNach.get(z.produktNr)?.name ?? null), volumenVerbleibend: scale3(b.rest), referenzNachweisNr: null, storniert: b.storniert,
      },
    };
  }));
  await schreiben(trx, nbStore, mandant, bescheinigungen.filter((b) => b.stamm).map((t) => {
    const { nr: _nr, version: _v, updatedAt: _u, ...merkmale } = nbGespeichert.get(t.stamm!.nr)!;
    const volumen = mengeAusMilli(t.volumen);
    return {
      nr: t.nr, staende: t.staende, rest: 'volumenVerbleibend',
      daten: { ...merkmale, volumen, referenzNachweisNr: t.stamm!.nr, storniert: t.storniert, ...nbTeil(nbGespeichert.get(t.stamm!.nr)!, volumen), volumenVerbleibend: scale3(t.rest) },
    };
  }));
}

/**
 * Inserts records with their last state and writes one version per state they went through (quelle 'demo'):
 * version 1 as entered, then each change of the rest or the cancellation, with what changed. Returns the
 * stored records.
 */
async function schreiben<T extends Record<string, unknown>>(
  trx: Knex.Transaction,
  store: VersionedStore<T>,
  mandant: string,
  records: { nr: string; daten: Record<string, unknown>; staende: Stand[]; rest: string }[],
): Promise<Map<string, T & Meta>> {
  if (!records.length) return new Map();
  const fields = Object.entries(store.spec.fields) as [string, string][];
  const json = new Set(['hinweise', 'datei']);
  const rows = records.map((r) => {
    const row: Row = { mandant, nr: r.nr, version: r.staende.length, created_at: r.staende[0].at, updated_at: r.staende.at(-1)!.at, updated_by: null };
    for (const [field, column] of fields) {
      const v = r.daten[field] ?? null;
      row[column] = v !== null && json.has(field) ? JSON.stringify(v) : v;
    }
    return row;
  });
  const stored: Row[] = [];
  for (let i = 0; i < rows.length; i += 200) stored.push(...(await trx(store.spec.table).insert(rows.slice(i, i + 200)).returning('*')));
  const byNr = new Map(stored.map((row) => [String(row.nr), store.fromRow(row)]));
  const names = fields.map(([f]) => f);
  const versionen = records.flatMap((r) => {
    const last = byNr.get(r.nr)! as Record<string, unknown>;
    let before: Record<string, unknown> | null = null;
    return r.staende.map((s, i) => {
      const data: Record<string, unknown> = { ...last, version: i + 1, updatedAt: s.at, [r.rest]: scale3(s.rest), storniert: s.storniert };
      const changes = before ? changesOf(before, data, names) : names.filter((f) => normal(data[f]) !== null).map((f) => ({ field: f, before: null, after: data[f] }));
      before = data;
      return { mandant, nr: r.nr, version: i + 1, data: JSON.stringify(data), changes: JSON.stringify(changes), benutzer_id: null, quelle: DEMO_DATA, at: s.at };
    });
  });
  await insertChunked(trx, `${store.spec.table}_versionen`, versionen);
  return byNr;
}

// ---------------------------------------------------------------------------------------------------------
// The PoS documents: one page each, in the PDF standard font (nothing embedded), drawn with pdfkit as the list
// export does; its creation date is the issue date, so the same certificate always gives the same bytes.

type PDFKit = typeof import('pdfkit');
let pdfkitLaden: Promise<PDFKit> | null = null;
const pdfkit = () => (pdfkitLaden ??= import('pdfkit').then((m) => (m as unknown as { default: PDFKit }).default ?? m));

let namen: { de: Record<string, string>; en: Record<string, string> } | null = null;
/** The raw materials' names as the pages give them (locales/*\/nachweis-pruefung.json). */
function rohstoffName(code: string): string {
  namen ??= {
    de: JSON.parse(readFileSync(path.join(ROOT, 'locales', 'de', 'nachweis-pruefung.json'), 'utf8')).rohstoffe,
    en: JSON.parse(readFileSync(path.join(ROOT, 'locales', 'en', 'nachweis-pruefung.json'), 'utf8')).rohstoffe,
  };
  return namen.de[code] && namen.en[code] && namen.de[code] !== namen.en[code] ? `${namen.de[code]} / ${namen.en[code]}` : (namen.de[code] ?? code);
}

const zahl = (v: unknown, stellen: number) => Number(v).toLocaleString('de-DE', { minimumFractionDigits: stellen, maximumFractionDigits: stellen });
const datum = (v: unknown) => (v ? String(v).split('-').reverse().join('.') : '–');

async function posDateien(zertifikate: Zertifikat[], produkte: Map<string, Produkt>, mandant: string) {
  const out: { nr: string; name: string; inhalt: Buffer; sha256: string; at: Date }[] = [];
  for (const z of zertifikate.filter((x) => x.pdf)) {
    const inhalt = await posPdf(z.nr, z.daten as PoS, produkte.get(z.daten.produktNr)?.name ?? null, mandant);
    out.push({ nr: z.nr, name: `${z.nr}.pdf`, inhalt, sha256: createHash('sha256').update(inhalt).digest('hex'), at: z.staende[0].at });
  }
  return out;
}

/**
 * A certificate's PoS document (one A4 page), as the demo data files it: the same certificate gives the same bytes.
 * Also for the demo filling stations' certificates (seeds/tankstelle.ts).
 */
export async function posPdf(nr: string, n: Nachweis & Partial<Record<Emissionsteil, string | null>>, produktName: string | null, mandant: string): Promise<Buffer> {
  const PDFDocument = await pdfkit();
  const teile = EMISSIONSTEILE.map((t) => `${t} ${n[t] == null ? '–' : zahl(n[t], 1)}`).join(' · ');
  const zeilen: [string, string][] = [
    ['Nummer / Number', nr],
    ['Ausstellungsdatum / Date of issuance', datum(n.ausstellungsdatum)],
    ['Zertifizierungssystem / Scheme', `${n.zertifizierungssystem}${n.vorlaeufig ? ' (vorläufig / provisional)' : ''}`],
    ['Lieferant / Supplier', `${n.lieferant ?? '–'} (${n.lieferantZertifikatNr ?? '–'})`],
    ['Versandort / Dispatch address', n.versandort ?? '–'],
    ['Empfänger / Recipient', n.empfaenger ?? mandant],
    ['Empfangsort / Receiving address', n.empfangsort ?? '–'],
    ['Vertrag / Contract', n.vertragsNr ?? '–'],
    ['Lieferung / Delivery', `${datum(n.lieferungVon)} – ${datum(n.lieferungBis)}`],
    ['Produkt / Product', produktName ?? n.produktNr],
    ['Rohstoff / Raw material', `${rohstoffName(n.rohstoff)}${n.biomasseCode ? ` (${n.biomasseCode})` : ''}`],
    ['Herkunftsland / Country of origin', n.herkunftsland ?? '–'],
    ['Menge / Quantity', `${zahl(n.menge, 0)} ${n.einheit}`],
    ['Energiegehalt / Energy content', `${zahl(n.energiegehalt, 0)} MJ`],
    ['Anlage in Betrieb seit / Plant in operation since', n.anlageInbetriebnahme ? datum(n.anlageInbetriebnahme) : 'nicht angegeben / not stated'],
    ['Emissionen / Emissions (g CO2eq/MJ)', n.eec == null ? `Gesamtwert / total ${zahl(n.gesamtStandardwert, 2)}` : teile],
    ['E (g CO2eq/MJ)', zahl(n.thg, 2)],
    ['THG-Einsparung / GHG saving', `${zahl(n.einsparung, 2)} % (Komparator / comparator ${zahl(n.vergleichswert, 0)} g CO2eq/MJ)`],
    ['Nachhaltig / Sustainable', n.nachhaltig ? 'ja / yes (RED II Art. 29)' : 'nein / no'],
  ];
  const doc = new PDFDocument({
    size: 'A4', margins: { top: 56, bottom: 56, left: 56, right: 56 }, lang: 'de-DE', displayTitle: true,
    info: { Title: pdfText(`Nachhaltigkeitsnachweis ${nr}`), Author: pdfText(n.lieferant ?? ''), CreationDate: new Date(ms(n.ausstellungsdatum!)) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.once('end', resolve));
  doc.font('Helvetica-Bold').fontSize(15).text('Nachhaltigkeitsnachweis (Proof of Sustainability)');
  doc.font('Helvetica').fontSize(9).fillColor('#4f5d56').text('nach Richtlinie (EU) 2018/2001 (RED II) / according to Directive (EU) 2018/2001 (RED II)').moveDown(1.2);
  doc.fillColor('black');
  for (const [label, wert] of zeilen) {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(9).text(pdfText(label), 56, y, { width: 190 });
    const yLabel = doc.y;
    doc.font('Helvetica').text(pdfText(wert), 256, y, { width: 283 });
    doc.y = Math.max(doc.y, yLabel) + 4;
  }
  doc.moveDown(2).font('Helvetica-Oblique').fontSize(8).fillColor('#4f5d56')
    .text('Demodaten: Lieferant, Zahlen und Nummer sind erfunden. / Demo data: supplier, figures and number are fictional.', 56);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
