import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { WERTE_2026 } from './gesetzeswerte.fixture.js';
import { loadResources } from '../http/i18n.js';
import { berechneNachweis } from './ghg.js';
import { FEHLER_CODES, HINWEIS_CODES, pruefeNachweis, type Befund, type PruefEingabe } from './nachweis-pruefung.js';
import { KETTENMODELLE, ROHSTOFF_ARTEN, ROHSTOFFE } from './rohstoffe.js';

const WERTE = WERTE_2026;
const HEUTE = '2026-05-15';

/** A certificate that passes every check: rapeseed FAME, E 10 from the parts and as total, plant from 2022. */
const BASIS: PruefEingabe = {
  menge: '10000', einheit: 'L', lcv: null, biogehalt: null, produktgruppe: 'biodiesel',
  anlageInbetriebnahme: '2022-03-01', gesamtStandardwert: '10',
  eec: '4.5', el: '0', ep: '3.2', etd: '1.8', eu: '0.5', esca: null, eccs: null, eccr: null,
  nachhaltig: true, abfall: false, rohstoff: 'raps', herkunftsland: 'DE', dichte: '0.89',
  ausstellungsdatum: '2026-05-01', zeitraumVon: '2026-04-01', zeitraumBis: '2026-06-30',
  lieferungVon: '2026-04-10', lieferungBis: '2026-05-10',
};
const NUR_STANDARDWERT = { eec: null, el: null, ep: null, etd: null, eu: null };

function pruefe(aenderung: Partial<PruefEingabe>, heute = HEUTE) {
  const n = { ...BASIS, ...aenderung };
  return pruefeNachweis(n, berechneNachweis(n, WERTE), heute);
}
const alle = (r: { fehler: Befund[]; hinweise: Befund[] }) => [...r.fehler, ...r.hinweise];

it('the base certificate passes every check', () => {
  expect(pruefe({})).toEqual({ fehler: [], hinweise: [] });
});

// Each case changes the base in one respect and expects one finding; `params` are checked where given.
type Fall = [name: string, aenderung: Partial<PruefEingabe>, erwartet: Befund];
const FEHLER: Fall[] = [
  ['below its threshold (E 32.91 → 64.99 %)', { eec: '27.41', gesamtStandardwert: null },
    { code: 'SCHWELLE_UNTERSCHRITTEN', field: 'nachhaltig', params: { einsparung: '64.99', schwelle: '65' } }],
  ['an old plant below its 50 %', { anlageInbetriebnahme: '2015-10-05', gesamtStandardwert: '47.01', ...NUR_STANDARDWERT },
    { code: 'SCHWELLE_UNTERSCHRITTEN', field: 'nachhaltig', params: { einsparung: '49.99', schwelle: '50' } }],
  ['no quantity', { menge: '0' }, { code: 'MENGE_UNGUELTIG', field: 'menge', params: { menge: '0', hoechstens: '5000000000' } }],
  ['a negative quantity', { menge: '-1' }, { code: 'MENGE_UNGUELTIG', field: 'menge' }],
  ['more than 5·10⁹', { menge: '5000000000.001' }, { code: 'MENGE_UNGUELTIG', field: 'menge' }],
  ['delivery before the period', { lieferungVon: '2026-03-31' },
    { code: 'LIEFERUNG_AUSSERHALB_ZEITRAUM', field: 'lieferungVon', params: { context: 'vorBeginn', lieferungVon: '2026-03-31', zeitraumVon: '2026-04-01' } }],
  ['delivery after the period', { lieferungBis: '2026-07-01', zeitraumBis: '2026-05-12' },
    { code: 'LIEFERUNG_AUSSERHALB_ZEITRAUM', field: 'lieferungBis', params: { context: 'nachEnde', lieferungBis: '2026-07-01', zeitraumBis: '2026-05-12' } }],
  ['delivery ending before it starts', { lieferungVon: '2026-05-11' },
    { code: 'LIEFERUNG_AUSSERHALB_ZEITRAUM', field: 'lieferungBis', params: { context: 'reihenfolge', lieferungVon: '2026-05-11', lieferungBis: '2026-05-10' } }],
  ['issued two days ahead', { ausstellungsdatum: '2026-05-17' },
    { code: 'DATUM_IN_ZUKUNFT', field: 'ausstellungsdatum', params: { context: 'ausstellung', datum: '2026-05-17', tage: '1' } }],
  ['delivered 16 days ahead', { lieferungBis: '2026-05-31' },
    { code: 'DATUM_IN_ZUKUNFT', field: 'lieferungBis', params: { context: 'lieferung', datum: '2026-05-31', tage: '15' } }],
  ['delivery starting 16 days ahead', { lieferungVon: '2026-05-31', lieferungBis: '2026-06-02' },
    { code: 'DATUM_IN_ZUKUNFT', field: 'lieferungVon' }],
  ['issued more than 10 years ago', { ausstellungsdatum: '2016-05-14' },
    { code: 'DATUM_IN_ZUKUNFT', field: 'ausstellungsdatum', params: { context: 'vergangenheit', datum: '2016-05-14', jahre: '10' } }],
  ['a period from more than 10 years ago', { zeitraumVon: '2016-05-14' }, { code: 'DATUM_IN_ZUKUNFT', field: 'zeitraumVon' }],
  ['sugar beet for FAME', { rohstoff: 'zuckerruebe' },
    { code: 'ROHSTOFF_PASST_NICHT', field: 'rohstoff', params: { rohstoff: 'zuckerruebe', produktgruppe: 'biodiesel' } }],
  ['used cooking oil as vegetable oil', { rohstoff: 'altspeiseoel', eec: '0', produktgruppe: 'pflanzenoel', dichte: null },
    { code: 'ROHSTOFF_PASST_NICHT', field: 'rohstoff' }],
  ['rapeseed for petrol', { produktgruppe: 'benzin', dichte: null }, { code: 'ROHSTOFF_PASST_NICHT', field: 'rohstoff' }],
  ['an unknown raw material', { rohstoff: 'kohle' },
    { code: 'ROHSTOFF_PASST_NICHT', field: 'rohstoff', params: { rohstoff: 'kohle', produktgruppe: 'biodiesel', context: 'unbekannt' } }],
  ['eec above 200', { eec: '200.01', gesamtStandardwert: null, nachhaltig: false },
    { code: 'WERT_UNPLAUSIBEL', field: 'eec', params: { wert: '200.01', hoechstens: '200' } }],
  ['el below −200', { el: '-250' }, { code: 'WERT_UNPLAUSIBEL', field: 'el', params: { wert: '-250', hoechstens: '200' } }],
  ['ep above 200', { ep: '300', nachhaltig: false }, { code: 'WERT_UNPLAUSIBEL', field: 'ep' }],
  ['etd above 200', { etd: '201', nachhaltig: false }, { code: 'WERT_UNPLAUSIBEL', field: 'etd' }],
  ['eu above 200', { eu: '201', nachhaltig: false }, { code: 'WERT_UNPLAUSIBEL', field: 'eu' }],
  ['esca above 200', { esca: '201' }, { code: 'WERT_UNPLAUSIBEL', field: 'esca' }],
  ['eccs above 200', { eccs: '201' }, { code: 'WERT_UNPLAUSIBEL', field: 'eccs' }],
  ['eccr above 200', { eccr: '201' }, { code: 'WERT_UNPLAUSIBEL', field: 'eccr' }],
  ['no country of origin', { herkunftsland: null }, { code: 'HERKUNFT_FEHLT', field: 'herkunftsland' }],
  ['an empty country of origin', { herkunftsland: ' ' }, { code: 'HERKUNFT_FEHLT', field: 'herkunftsland' }],
  ['no country for a waste', { herkunftsland: null, rohstoff: 'altspeiseoel', eec: '0' },
    { code: 'HERKUNFT_FEHLT', field: 'herkunftsland', params: { context: 'abfall' } }],
  ['ep zero', { ep: '0', gesamtStandardwert: null }, { code: 'EP_NULL', field: 'ep', params: { wert: '0' } }],
  ['ep negative', { ep: '-1', gesamtStandardwert: null }, { code: 'EP_NULL', field: 'ep', params: { wert: '-1' } }],
  ['ep missing among the parts', { ep: null, gesamtStandardwert: null }, { code: 'EP_NULL', field: 'ep', params: { wert: '0' } }],
  ['etd zero', { etd: '0', gesamtStandardwert: null }, { code: 'ETD_NULL', field: 'etd' }],
  ['etd missing among the parts', { etd: '', gesamtStandardwert: null }, { code: 'ETD_NULL', field: 'etd' }],
  ['eec zero for rapeseed', { eec: '0', gesamtStandardwert: null }, { code: 'EEC_NULL', field: 'eec' }],
  ['eec missing for rapeseed', { eec: null, gesamtStandardwert: null }, { code: 'EEC_NULL', field: 'eec' }],
  ['eec zero without a raw material', { eec: '0', rohstoff: null, gesamtStandardwert: null }, { code: 'EEC_NULL', field: 'eec' }],
];

const HINWEISE: Fall[] = [
  ['eec for used cooking oil', { rohstoff: 'altspeiseoel' }, { code: 'EEC_BEI_ABFALL', field: 'eec', params: { wert: '4.5' } }],
  ['eec for a residue', { rohstoff: 'agrarreststoffe', produktgruppe: 'bioethanol', dichte: null }, { code: 'EEC_BEI_ABFALL', field: 'eec' }],
  ['eec for rapeseed declared a waste', { abfall: true }, { code: 'EEC_BEI_ABFALL', field: 'eec' }],
  ['a saving above 99 % with a credit', { eec: '1', ep: '1', etd: '1', eu: '0', esca: '2.2', gesamtStandardwert: null },
    { code: 'EINSPARUNG_HOCH', field: 'eec', params: { einsparung: '99.15' } }],
  ['100 % with a credit', { eec: '1', ep: '1', etd: '1', eu: '0', eccs: '3.5', gesamtStandardwert: null },
    { code: 'EINSPARUNG_HOCH', field: 'eec', params: { einsparung: '100.53' } }],
  ['100 % from a total default value of 0, without a credit', { gesamtStandardwert: '0', ...NUR_STANDARDWERT },
    { code: 'EINSPARUNG_HOCH', field: 'gesamtStandardwert', params: { einsparung: '100.00', context: 'ohneGutschrift' } }],
  ['100 % from parts without a credit', { eec: '1', el: '-3.5', ep: '1', etd: '1', eu: '0', gesamtStandardwert: null },
    { code: 'EINSPARUNG_HOCH', field: 'eec', params: { einsparung: '100.53', context: 'ohneGutschrift' } }],
  ['el negative', { el: '-1', gesamtStandardwert: null }, { code: 'EL_NEGATIV', field: 'el', params: { wert: '-1' } }],
  ['parts 0.11 above the total', { gesamtStandardwert: '9.89' },
    { code: 'SUMME_WEICHT_AB', field: 'gesamtStandardwert', params: { eTeile: '10.00', gesamtStandardwert: '9.89', toleranz: '0.1' } }],
  ['parts 0.11 below the total', { gesamtStandardwert: '10.11' }, { code: 'SUMME_WEICHT_AB', field: 'gesamtStandardwert' }],
  ['a density 5 % and a bit above FAME’s 0.892', { dichte: '0.9367' },
    { code: 'DICHTE_WEICHT_AB', field: 'dichte', params: { dichte: '0.9367', referenz: '0.892', toleranz: '5' } }],
  ['a density 5 % and a bit below', { dichte: '0.8473' }, { code: 'DICHTE_WEICHT_AB', field: 'dichte' }],
  ['a blend’s density against its own group', { produktgruppe: 'diesel', biogehalt: '7', dichte: '0.89' },
    { code: 'DICHTE_WEICHT_AB', field: 'dichte', params: { dichte: '0.89', referenz: '0.837', toleranz: '5' } }],
  ['no plant date', { anlageInbetriebnahme: null }, { code: 'ANLAGE_UNBEKANNT', field: 'anlageInbetriebnahme', params: { schwelle: '65' } }],
];

const treffer = (befunde: Befund[], code: string, field?: string) => befunde.filter((b) => b.code === code && (field === undefined || b.field === field));

describe('errors refuse the save and name the field', () => {
  it.each(FEHLER)('%s', (_, aenderung, erwartet) => {
    const r = pruefe(aenderung);
    const gefunden = treffer(r.fehler, erwartet.code, erwartet.field);
    expect(gefunden).toHaveLength(1);
    if (erwartet.params) expect(gefunden[0].params).toEqual(erwartet.params);
  });
});

describe('warnings save and show', () => {
  it.each(HINWEISE)('%s', (_, aenderung, erwartet) => {
    const r = pruefe(aenderung);
    expect(r.fehler.filter((b) => b.code === erwartet.code)).toEqual([]);
    const gefunden = treffer(r.hinweise, erwartet.code, erwartet.field);
    expect(gefunden).toHaveLength(1);
    if (erwartet.params) expect(gefunden[0].params).toEqual(erwartet.params);
  });
});

// The same rules just on the passing side of their boundary, or where they do not apply.
const BESTANDEN: [name: string, code: string, aenderung: Partial<PruefEingabe>, heute?: string][] = [
  ['exactly at the threshold (E 32.90 → 65.00 %)', 'SCHWELLE_UNTERSCHRITTEN', { eec: '27.40', gesamtStandardwert: null }],
  ['below the threshold but not claimed sustainable', 'SCHWELLE_UNTERSCHRITTEN', { eec: '27.41', gesamtStandardwert: null, nachhaltig: false }],
  ['a plant of 2015-10-05 at 50.00 %', 'SCHWELLE_UNTERSCHRITTEN', { anlageInbetriebnahme: '2015-10-05', gesamtStandardwert: '47', ...NUR_STANDARDWERT }],
  ['no E at all: nothing to compare', 'SCHWELLE_UNTERSCHRITTEN', { gesamtStandardwert: null, ...NUR_STANDARDWERT }],
  ['the smallest quantity', 'MENGE_UNGUELTIG', { menge: '0.001' }],
  ['exactly 5·10⁹', 'MENGE_UNGUELTIG', { menge: '5000000000' }],
  ['delivery exactly the period', 'LIEFERUNG_AUSSERHALB_ZEITRAUM', { lieferungVon: '2026-04-01', lieferungBis: '2026-06-30' }],
  ['delivery on one day', 'LIEFERUNG_AUSSERHALB_ZEITRAUM', { lieferungVon: '2026-05-10', lieferungBis: '2026-05-10' }],
  ['no period given', 'LIEFERUNG_AUSSERHALB_ZEITRAUM', { zeitraumVon: null, zeitraumBis: null }],
  ['issued tomorrow', 'DATUM_IN_ZUKUNFT', { ausstellungsdatum: '2026-05-16' }],
  ['delivered in 15 days', 'DATUM_IN_ZUKUNFT', { lieferungBis: '2026-05-30' }],
  ['issued exactly 10 years ago', 'DATUM_IN_ZUKUNFT', { ausstellungsdatum: '2016-05-15', zeitraumVon: '2016-05-15', lieferungVon: '2016-05-15' }],
  ['a period reaching a year ahead', 'DATUM_IN_ZUKUNFT', { zeitraumBis: '2027-05-15' }],
  ['a plant from 1990 (not a date of the certificate)', 'DATUM_IN_ZUKUNFT', { anlageInbetriebnahme: '1990-01-01' }],
  ['on 29 February, 10 years back is 28 February', 'DATUM_IN_ZUKUNFT', { ausstellungsdatum: '2026-02-28', zeitraumVon: '2026-02-28', zeitraumBis: '2036-02-29', lieferungVon: '2026-03-01', lieferungBis: '2036-02-29' }, '2036-02-29'],
  ['used cooking oil for HVO', 'ROHSTOFF_PASST_NICHT', { rohstoff: 'altspeiseoel', eec: '0', produktgruppe: 'hvo', dichte: null }],
  ['rapeseed for a diesel blend', 'ROHSTOFF_PASST_NICHT', { produktgruppe: 'diesel', biogehalt: '7', dichte: null }],
  ['wood for ethanol', 'ROHSTOFF_PASST_NICHT', { rohstoff: 'holz', produktgruppe: 'bioethanol', dichte: null }],
  ['no raw material named (required elsewhere)', 'ROHSTOFF_PASST_NICHT', { rohstoff: null }],
  ['values at ±200', 'WERT_UNPLAUSIBEL', { eec: '200', el: '-200', esca: '200', nachhaltig: false }],
  ['a country of origin', 'HERKUNFT_FEHLT', { herkunftsland: 'MY' }],
  ['only the total default value: no parts to check for zero', 'EP_NULL', { gesamtStandardwert: '10', ...NUR_STANDARDWERT }],
  ['only the total default value (etd)', 'ETD_NULL', { gesamtStandardwert: '10', ...NUR_STANDARDWERT }],
  ['only the total default value (eec)', 'EEC_NULL', { gesamtStandardwert: '10', ...NUR_STANDARDWERT }],
  ['a small positive ep', 'EP_NULL', { ep: '0.01', gesamtStandardwert: null }],
  ['a small positive etd', 'ETD_NULL', { etd: '0.01', gesamtStandardwert: null }],
  ['eec zero for used cooking oil', 'EEC_NULL', { rohstoff: 'altspeiseoel', eec: '0', gesamtStandardwert: null }],
  ['eec zero for a residue', 'EEC_NULL', { rohstoff: 'talloel', eec: '0', gesamtStandardwert: null }],
  ['eec zero for rapeseed declared a waste', 'EEC_NULL', { abfall: true, eec: '0', gesamtStandardwert: null }],
  ['eec zero for used cooking oil (warning)', 'EEC_BEI_ABFALL', { rohstoff: 'altspeiseoel', eec: '0', gesamtStandardwert: null }],
  ['eec for a cultivated raw material', 'EEC_BEI_ABFALL', {}],
  ['exactly 99.00 %', 'EINSPARUNG_HOCH', { eec: '1', ep: '1', etd: '1', eu: '0', esca: '2.06', gesamtStandardwert: null }],
  ['el zero', 'EL_NEGATIV', { el: '0' }],
  ['el not given', 'EL_NEGATIV', { el: null, gesamtStandardwert: null }],
  ['parts 0.1 above the total', 'SUMME_WEICHT_AB', { gesamtStandardwert: '9.9' }],
  ['parts 0.1 below the total', 'SUMME_WEICHT_AB', { gesamtStandardwert: '10.1' }],
  ['no total default value', 'SUMME_WEICHT_AB', { gesamtStandardwert: null }],
  ['a density exactly 5 % above', 'DICHTE_WEICHT_AB', { dichte: '0.9366' }],
  ['a density exactly 5 % below', 'DICHTE_WEICHT_AB', { dichte: '0.8474' }],
  ['no density given', 'DICHTE_WEICHT_AB', { dichte: null }],
  ['a plant date', 'ANLAGE_UNBEKANNT', { anlageInbetriebnahme: '2010-01-01' }],
];

describe('and pass on the other side of their boundary', () => {
  it.each(BESTANDEN)('%s: no %s', (_, code, aenderung, heute) => {
    expect(treffer(alle(pruefe(aenderung, heute)), code)).toEqual([]);
  });
});

describe('decisions where the tables are silent', () => {
  it('gives one finding per field and code: a delivery out of order and past the period is one problem at its end', () => {
    const r = pruefe({ lieferungVon: '2026-07-05', lieferungBis: '2026-07-01' });
    expect(treffer(r.fehler, 'LIEFERUNG_AUSSERHALB_ZEITRAUM')).toEqual([
      { code: 'LIEFERUNG_AUSSERHALB_ZEITRAUM', field: 'lieferungBis', params: { context: 'reihenfolge', lieferungVon: '2026-07-05', lieferungBis: '2026-07-01' } },
    ]);
  });

  it('names each date field that is out of range', () => {
    const r = pruefe({ ausstellungsdatum: '2010-01-01', zeitraumVon: '2010-01-01', lieferungVon: '2026-06-20', lieferungBis: '2026-06-25' });
    expect(treffer(r.fehler, 'DATUM_IN_ZUKUNFT').map((b) => b.field)).toEqual(['ausstellungsdatum', 'lieferungVon', 'lieferungBis', 'zeitraumVon']);
  });

  it('lists everything wrong at once, errors and warnings apart', () => {
    const r = pruefe({ menge: '0', herkunftsland: null, anlageInbetriebnahme: null, el: '-1', gesamtStandardwert: '9' });
    expect(r.fehler.map((b) => b.code)).toEqual(['MENGE_UNGUELTIG', 'HERKUNFT_FEHLT']);
    expect(r.hinweise.map((b) => b.code)).toEqual(['EL_NEGATIV', 'ANLAGE_UNBEKANNT']);
  });

  it('uses only the codes of the tables', () => {
    const codes = new Set<string>([...FEHLER, ...HINWEISE].map(([, , b]) => b.code));
    expect([...codes].sort()).toEqual([...FEHLER_CODES, ...HINWEIS_CODES].sort());
  });
});

describe('messages (locales/*/nachweis-pruefung.json)', () => {
  const resources = loadResources();
  const t = { de: i18next.createInstance(), en: i18next.createInstance() };
  beforeAll(async () => {
    for (const lng of ['de', 'en'] as const) {
      await t[lng].init({ lng, resources, ns: Object.keys(resources.de), interpolation: { escapeValue: false }, returnNull: false });
    }
  });

  type Baum = { [k: string]: string | Baum };
  const schluessel = (baum: Baum, vor = ''): string[] =>
    Object.entries(baum).flatMap(([k, v]) => (typeof v === 'string' ? [vor + k] : schluessel(v, `${vor}${k}.`)));

  it('has the same keys in German and English', () => {
    const de = schluessel(resources.de['nachweis-pruefung'] as Baum);
    expect(schluessel(resources.en['nachweis-pruefung'] as Baum)).toEqual(de);
  });

  it('names every code, raw material, kind and chain-of-custody option', () => {
    const texte = resources.de['nachweis-pruefung'] as Record<string, Record<string, string>>;
    for (const code of [...FEHLER_CODES, ...HINWEIS_CODES]) expect(texte.codes[code]).toBeTruthy();
    for (const r of ROHSTOFFE) expect(texte.rohstoffe[r.code]).toBeTruthy();
    for (const a of ROHSTOFF_ARTEN) expect(texte.rohstoffArten[a]).toBeTruthy();
    for (const k of KETTENMODELLE) expect(texte.kettenmodelle[k]).toBeTruthy();
  });

  it.each([...FEHLER, ...HINWEISE])('renders every finding completely in both languages: %s', (_, aenderung, erwartet) => {
    const befund = treffer(alle(pruefe(aenderung)), erwartet.code, erwartet.field)[0];
    for (const lng of ['de', 'en'] as const) {
      const text = t[lng].t(`nachweis-pruefung:codes.${befund.code}`, befund.params ?? {});
      expect(text).not.toMatch(/\{\{|\$t\(|codes\.|rohstoffe\.|gruppen\./);
      expect(text).toMatch(/\.$/);
    }
  });

  it('reads as the spec writes it', () => {
    const befund = pruefe({ eec: '27.41', gesamtStandardwert: null }).fehler[0];
    expect(t.de.t(`nachweis-pruefung:codes.${befund.code}`, befund.params)).toBe(
      'Die THG-Einsparung von 64,99 % liegt unter dem Mindestwert von 65 % für diese Anlage. Markieren Sie den Nachweis als nicht nachhaltig oder prüfen Sie die Emissionswerte.',
    );
    const rohstoff = pruefe({ rohstoff: 'zuckerruebe' }).fehler[0];
    expect(t.de.t(`nachweis-pruefung:codes.${rohstoff.code}`, rohstoff.params)).toBe(
      'Der Rohstoff Zuckerrübe ist für die Produktgruppe Biodiesel (FAME) nicht zulässig.',
    );
    expect(t.en.t(`nachweis-pruefung:codes.${rohstoff.code}`, rohstoff.params)).toBe(
      'The raw material Sugar beet is not allowed for the product group Biodiesel (FAME).',
    );
  });
});
