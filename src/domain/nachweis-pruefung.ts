// The sanity checks of a certificate (Nachweis, PoS), after the French state's CarbuRe: errors refuse the save
// and name the field, warnings save and show. The rules are the two tables of certificates-and-balances.md §1;
// where they are silent, the decision is written next to the rule. Pure: "today" is a parameter.
//
// A finding carries a code, the input field it is about (for the form to put the message there) and the
// values its message needs. Messages are locales/*/nachweis-pruefung.json `codes.<CODE>`; where one code has
// different causes, `params.context` picks the variant (i18next's context: `codes.<CODE>_<context>`).
import { REFERENZWERTE } from './fuels.js';
import { betrag, dez, isDec, mal, minus, vergleiche, verschoben, type Dec } from './dezimal.js';
import { EMISSIONSTEILE, GUTSCHRIFTEN, SUMME_TOLERANZ_G, type Emissionsteil, type NachweisEingabe, type NachweisErgebnis } from './ghg.js';
import { findeRohstoff, rohstoffPasst } from './rohstoffe.js';

// The bounds of the checks: rules of plausibility, not of the law (those come in as Gesetzeswerte).
/** No emission part of a real fuel reaches 200 gCO2eq/MJ either way; more is a typo or a wrong unit. */
export const WERT_HOECHSTENS_G_PRO_MJ = '200';
/** 5·10⁹ L or kg: more than any one batch, so more is a unit or digit error. */
export const MENGE_HOECHSTENS = '5000000000';
/** A density further than this from the group's Annex III reference suggests a wrong product or unit. */
export const DICHTE_TOLERANZ_PROZENT = '5';
/** A certificate is issued at the earliest the day before (time zones); one dated later is mistyped. */
export const AUSSTELLUNG_VORAUS_TAGE = 1;
/** Deliveries may be planned a little ahead, not more. */
export const LIEFERUNG_VORAUS_TAGE = 15;
/** Older certificates are long expired for the quota; an older date is mistyped. */
export const RUECKBLICK_JAHRE = 10;
/** Savings above this are rare enough to look twice. */
export const EINSPARUNG_HOCH_UEBER_PROZENT = '99';
/** A saving of 100 % (E ≤ 0) is only reachable with the credits esca, eccs or eccr. */
export const EINSPARUNG_NUR_MIT_GUTSCHRIFT_AB_PROZENT = '100';
/** The tolerance between the parts and the total default value lives with the engine that flags it. */
export { SUMME_TOLERANZ_G } from './ghg.js';

export const FEHLER_CODES = [
  'SCHWELLE_UNTERSCHRITTEN',
  'MENGE_UNGUELTIG',
  'LIEFERUNG_AUSSERHALB_ZEITRAUM',
  'DATUM_IN_ZUKUNFT',
  'ROHSTOFF_PASST_NICHT',
  'WERT_UNPLAUSIBEL',
  'HERKUNFT_FEHLT',
  'EP_NULL',
  'ETD_NULL',
  'EEC_NULL',
] as const;
export const HINWEIS_CODES = [
  'EEC_BEI_ABFALL',
  'EINSPARUNG_HOCH',
  'EL_NEGATIV',
  'SUMME_WEICHT_AB',
  'DICHTE_WEICHT_AB',
  'ANLAGE_UNBEKANNT',
] as const;
export type BefundCode = (typeof FEHLER_CODES)[number] | (typeof HINWEIS_CODES)[number];

export interface Befund {
  code: BefundCode;
  /** The input field the finding is about (camelCase, as in PruefEingabe). */
  field: string;
  /** The values the message interpolates; `context` selects the message's variant. */
  params?: Record<string, string>;
}

export type PruefEingabe = NachweisEingabe & {
  nachhaltig: boolean;
  /** The certificate declares its raw material a waste or residue. */
  abfall: boolean;
  rohstoff: string | null;
  herkunftsland: string | null;
  /** kg/L. */
  dichte: Dec | null;
  ausstellungsdatum: string | null;
  zeitraumVon: string | null;
  zeitraumBis: string | null;
  lieferungVon: string | null;
  lieferungBis: string | null;
};

const gegeben = (value: string | null | undefined): value is string => value != null && value.trim() !== '';
const tag = (value: string | null | undefined): string | null => (gegeben(value) ? value.trim().slice(0, 10) : null);

const ISO_TAG = /^(\d{4})-(\d{2})-(\d{2})$/;

function zerlegt(iso: string): [number, number, number] {
  const m = ISO_TAG.exec(iso);
  if (!m) throw new RangeError(`not an ISO date: ${iso}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const alsIso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function plusTage(iso: string, tage: number): string {
  const [y, m, d] = zerlegt(iso);
  return alsIso(Date.UTC(y, m - 1, d + tage));
}

/** The same calendar day n years earlier; 29 February becomes 28 February. */
function minusJahre(iso: string, jahre: number): string {
  const [y, m, d] = zerlegt(iso);
  const letzterTag = new Date(Date.UTC(y - jahre, m, 0)).getUTCDate();
  return alsIso(Date.UTC(y - jahre, m - 1, Math.min(d, letzterTag)));
}

const NULL = dez('0');

/** A part as the sum counts it: a missing part is zero. */
const teilWert = (n: NachweisEingabe, teil: Emissionsteil) => {
  const wert = n[teil];
  return gegeben(wert) ? dez(wert) : NULL;
};

export function pruefeNachweis(n: PruefEingabe, ergebnis: NachweisErgebnis, heute: string): { fehler: Befund[]; hinweise: Befund[] } {
  const fehler: Befund[] = [];
  const hinweise: Befund[] = [];
  // One finding per field and code: a date before the period and after its own end is one problem to fix.
  const melde = (liste: Befund[], code: BefundCode, field: string, params?: Record<string, string>) => {
    if (!liste.some((b) => b.code === code && b.field === field)) liste.push(params ? { code, field, params } : { code, field });
  };

  // "Waste or residue": declared so on the certificate, or by the nature of the raw material. Everything else,
  // an unnamed raw material included, counts as cultivated.
  const art = gegeben(n.rohstoff) ? findeRohstoff(n.rohstoff)?.art : undefined;
  const abfallOderReststoff = n.abfall || art === 'abfall' || art === 'reststoff';
  // The zero checks on ep, etd and eec need parts: a certificate with only the total default value has none.
  const mitTeilen = ergebnis.eTeile !== null;

  // ---- Errors ----
  // The field is `nachhaltig`: a batch below its threshold is legal, only not as sustainable, so the fix the
  // message offers first is to untick that box (or to correct the emission values).
  if (n.nachhaltig && ergebnis.schwelleErfuellt === false && ergebnis.einsparung !== null) {
    melde(fehler, 'SCHWELLE_UNTERSCHRITTEN', 'nachhaltig', { einsparung: ergebnis.einsparung, schwelle: ergebnis.schwelle });
  }

  if (!isDec(n.menge) || dez(n.menge).n <= 0n || vergleiche(dez(n.menge), dez(MENGE_HOECHSTENS)) > 0) {
    melde(fehler, 'MENGE_UNGUELTIG', 'menge', { menge: n.menge, hoechstens: MENGE_HOECHSTENS });
  }

  const [lieferungVon, lieferungBis, zeitraumVon, zeitraumBis] = [n.lieferungVon, n.lieferungBis, n.zeitraumVon, n.zeitraumBis].map(tag);
  // A delivery that ends before it starts is named at its end, before an end after the period: fixing the
  // order comes first.
  if (lieferungVon && lieferungBis && lieferungVon > lieferungBis) {
    melde(fehler, 'LIEFERUNG_AUSSERHALB_ZEITRAUM', 'lieferungBis', { context: 'reihenfolge', lieferungVon, lieferungBis });
  }
  if (lieferungVon && zeitraumVon && lieferungVon < zeitraumVon) {
    melde(fehler, 'LIEFERUNG_AUSSERHALB_ZEITRAUM', 'lieferungVon', { context: 'vorBeginn', lieferungVon, zeitraumVon });
  }
  if (lieferungBis && zeitraumBis && lieferungBis > zeitraumBis) {
    melde(fehler, 'LIEFERUNG_AUSSERHALB_ZEITRAUM', 'lieferungBis', { context: 'nachEnde', lieferungBis, zeitraumBis });
  }

  // Each date field on its own, "more than 10 years back" counted from today. The plant's start of operation
  // is not one of them: old plants are the reason the thresholds have dates at all.
  const fruehestens = minusJahre(heute, RUECKBLICK_JAHRE);
  const datumsfelder: [field: 'ausstellungsdatum' | 'lieferungVon' | 'lieferungBis' | 'zeitraumVon' | 'zeitraumBis', voraus: number | null][] = [
    ['ausstellungsdatum', AUSSTELLUNG_VORAUS_TAGE],
    ['lieferungVon', LIEFERUNG_VORAUS_TAGE],
    ['lieferungBis', LIEFERUNG_VORAUS_TAGE],
    // A period of validity may reach into the future; it is only checked for being far in the past.
    ['zeitraumVon', null],
    ['zeitraumBis', null],
  ];
  for (const [field, voraus] of datumsfelder) {
    const datum = tag(n[field]);
    if (!datum) continue;
    if (voraus !== null && datum > plusTage(heute, voraus)) {
      // The message names the kind of date: "in the future" for the issue date (the one day is for time
      // zones), "more than 15 days ahead" for a delivery.
      const context = field === 'ausstellungsdatum' ? 'ausstellung' : 'lieferung';
      melde(fehler, 'DATUM_IN_ZUKUNFT', field, { context, datum, tage: String(voraus) });
    } else if (datum < fruehestens) {
      melde(fehler, 'DATUM_IN_ZUKUNFT', field, { context: 'vergangenheit', datum, jahre: String(RUECKBLICK_JAHRE) });
    }
  }

  // A code outside the catalogue cannot be shown to fit, so it does not.
  if (gegeben(n.rohstoff) && !rohstoffPasst(n.rohstoff, n.produktgruppe)) {
    const params = { rohstoff: n.rohstoff, produktgruppe: n.produktgruppe };
    melde(fehler, 'ROHSTOFF_PASST_NICHT', 'rohstoff', art === undefined ? { ...params, context: 'unbekannt' } : params);
  }

  for (const teil of EMISSIONSTEILE) {
    const wert = n[teil];
    if (gegeben(wert) && vergleiche(betrag(dez(wert)), dez(WERT_HOECHSTENS_G_PRO_MJ)) > 0) {
      melde(fehler, 'WERT_UNPLAUSIBEL', teil, { wert, hoechstens: WERT_HOECHSTENS_G_PRO_MJ });
    }
  }

  if (!gegeben(n.herkunftsland)) {
    melde(fehler, 'HERKUNFT_FEHLT', 'herkunftsland', abfallOderReststoff ? { context: 'abfall' } : undefined);
  }

  // Among given parts a missing one counts as zero, as it does in the sum: a PoS without ep claims ep = 0.
  if (mitTeilen && teilWert(n, 'ep').n <= 0n) melde(fehler, 'EP_NULL', 'ep', { wert: n.ep || '0' });
  if (mitTeilen && teilWert(n, 'etd').n <= 0n) melde(fehler, 'ETD_NULL', 'etd', { wert: n.etd || '0' });
  if (mitTeilen && !abfallOderReststoff && teilWert(n, 'eec').n === 0n) melde(fehler, 'EEC_NULL', 'eec');

  // ---- Warnings ----
  if (abfallOderReststoff && teilWert(n, 'eec').n > 0n) melde(hinweise, 'EEC_BEI_ABFALL', 'eec', { wert: n.eec! });

  if (ergebnis.einsparung !== null && vergleiche(dez(ergebnis.einsparung), dez(EINSPARUNG_HOCH_UEBER_PROZENT)) > 0) {
    const mitGutschrift = GUTSCHRIFTEN.some((teil) => teilWert(n, teil).n !== 0n);
    const unmoeglich = !mitGutschrift && vergleiche(dez(ergebnis.einsparung), dez(EINSPARUNG_NUR_MIT_GUTSCHRIFT_AB_PROZENT)) >= 0;
    // The saving is computed, not entered: the finding goes to where E comes from, the total default value or
    // the first of the parts (where the form's block of emission values begins).
    const field = ergebnis.thgQuelle === 'standardwert' ? 'gesamtStandardwert' : 'eec';
    melde(hinweise, 'EINSPARUNG_HOCH', field, unmoeglich ? { einsparung: ergebnis.einsparung, context: 'ohneGutschrift' } : { einsparung: ergebnis.einsparung });
  }

  if (teilWert(n, 'el').n < 0n) melde(hinweise, 'EL_NEGATIV', 'el', { wert: n.el! });

  if (ergebnis.summeWeichtAb && ergebnis.eTeile !== null && gegeben(n.gesamtStandardwert)) {
    melde(hinweise, 'SUMME_WEICHT_AB', 'gesamtStandardwert', {
      eTeile: ergebnis.eTeile,
      gesamtStandardwert: n.gesamtStandardwert,
      toleranz: SUMME_TOLERANZ_G,
    });
  }

  // The density is the delivered product's own, so a blend is measured against its group (B7 against diesel).
  if (gegeben(n.dichte)) {
    const referenz = dez(String(REFERENZWERTE[n.produktgruppe].kgProL));
    // |dichte − referenz| > 5 % of referenz, as 100 · |dichte − referenz| > 5 · referenz: exact.
    const abweichung = verschoben(betrag(minus(dez(n.dichte), referenz)), -2);
    if (vergleiche(abweichung, mal(referenz, dez(DICHTE_TOLERANZ_PROZENT))) > 0) {
      melde(hinweise, 'DICHTE_WEICHT_AB', 'dichte', { dichte: n.dichte, referenz: String(REFERENZWERTE[n.produktgruppe].kgProL), toleranz: DICHTE_TOLERANZ_PROZENT });
    }
  }

  if (!ergebnis.anlageBekannt) melde(hinweise, 'ANLAGE_UNBEKANNT', 'anlageInbetriebnahme', { schwelle: ergebnis.schwelle });

  return { fehler, hinweise };
}
