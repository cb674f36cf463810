// Catalogues of a certificate's characteristics: raw materials and the product groups each may make,
// certification schemes, chain-of-custody options, countries. Pure data; names live in
// locales/*/nachweis-pruefung.json (rohstoffe.<code>, kettenmodelle.<value>), the country names come from
// the runtime's ICU data so that no list of 250 names has to be kept up to date by hand.
import type { Produktgruppe } from './fuels.js';

/** Cultivated, a waste (e.g. used cooking oil), or a residue of processing or of the field (e.g. straw). */
export const ROHSTOFF_ARTEN = ['anbau', 'abfall', 'reststoff'] as const;
export type RohstoffArt = (typeof ROHSTOFF_ARTEN)[number];

export interface Rohstoff {
  readonly code: string;
  readonly art: RohstoffArt;
  /** The product groups a certificate for this raw material may be about (ROHSTOFF_PASST_NICHT). */
  readonly produktgruppen: readonly Produktgruppe[];
}

// Which fuel a raw material can become (certificates-and-balances.md §1, ROHSTOFF_PASST_NICHT). A certificate
// for a blend certifies its bio component, so diesel takes what FAME and HVO take, petrol what ethanol takes.
const ETHANOL: readonly Produktgruppe[] = ['bioethanol', 'benzin'];
const OELPFLANZE: readonly Produktgruppe[] = ['biodiesel', 'hvo', 'pflanzenoel', 'diesel'];
const ALTFETT: readonly Produktgruppe[] = ['biodiesel', 'hvo', 'diesel'];

export const ROHSTOFFE: readonly Rohstoff[] = [
  { code: 'raps', art: 'anbau', produktgruppen: OELPFLANZE },
  { code: 'sonnenblume', art: 'anbau', produktgruppen: OELPFLANZE },
  { code: 'soja', art: 'anbau', produktgruppen: OELPFLANZE },
  { code: 'palm', art: 'anbau', produktgruppen: OELPFLANZE },
  { code: 'altspeiseoel', art: 'abfall', produktgruppen: ALTFETT },
  // Animal fat of categories 1 and 2 (Regulation (EC) No 1069/2009): a waste, RED II Annex IX part B.
  { code: 'tierfett', art: 'abfall', produktgruppen: ALTFETT },
  // Crude tall oil and POME are left over from making pulp and palm oil: residues of processing.
  { code: 'talloel', art: 'reststoff', produktgruppen: ALTFETT },
  { code: 'pome', art: 'reststoff', produktgruppen: ALTFETT },
  { code: 'abfalloel', art: 'abfall', produktgruppen: ALTFETT },
  { code: 'zuckerruebe', art: 'anbau', produktgruppen: ETHANOL },
  { code: 'zuckerrohr', art: 'anbau', produktgruppen: ETHANOL },
  { code: 'mais', art: 'anbau', produktgruppen: ETHANOL },
  { code: 'weizen', art: 'anbau', produktgruppen: ETHANOL },
  { code: 'getreide', art: 'anbau', produktgruppen: ETHANOL },
  // The residues of the sugar and cereal crops above: straw, corn stover, bagasse, beet pulp.
  { code: 'agrarreststoffe', art: 'reststoff', produktgruppen: ETHANOL },
  // Wood and other lignocellulose counts as cultivated (short-rotation coppice, forest biomass), so that a
  // zero eec is questioned; sawdust and other residues are entered with the certificate's waste flag.
  { code: 'holz', art: 'anbau', produktgruppen: ETHANOL },
];

const NACH_CODE = new Map(ROHSTOFFE.map((r) => [r.code, r]));

export function isRohstoff(code: unknown): code is string {
  return typeof code === 'string' && NACH_CODE.has(code);
}

export function findeRohstoff(code: string): Rohstoff | undefined {
  return NACH_CODE.get(code);
}

export function rohstoffPasst(code: string, gruppe: Produktgruppe): boolean {
  return NACH_CODE.get(code)?.produktgruppen.includes(gruppe) ?? false;
}

/** Voluntary schemes recognised by the Commission for RED II, and Nabisy for proofs taken from the German register. */
export const ZERTIFIZIERUNGSSYSTEME = [
  'ISCC EU',
  'REDcert-EU',
  '2BSvs',
  'KZR INiG',
  'Bonsucro EU',
  'RSB EU RED',
  'RSPO RED',
  'SURE-EU',
  'Better Biomass',
  'Nabisy',
] as const;
export type Zertifizierungssystem = (typeof ZERTIFIZIERUNGSSYSTEME)[number];

export function isZertifizierungssystem(value: unknown): value is Zertifizierungssystem {
  return typeof value === 'string' && (ZERTIFIZIERUNGSSYSTEME as readonly string[]).includes(value);
}

/** The chain-of-custody option a PoS declares (the contract's field `schema`). */
export const KETTENMODELLE = ['massenbilanz', 'segregation', 'identitaetserhalt'] as const;
export type Kettenmodell = (typeof KETTENMODELLE)[number];

export function isKettenmodell(value: unknown): value is Kettenmodell {
  return typeof value === 'string' && (KETTENMODELLE as readonly string[]).includes(value);
}

// ICU knows more two-letter regions than ISO 3166-1 assigns. Left out: groupings and private-use codes (EU,
// EZ, UN, QO, XA, XB, ZZ) and the "exceptionally reserved" codes that are not countries of their own
// (Ascension, Clipperton, Sark, Diego Garcia, Ceuta and Melilla, Canary Islands, Tristan da Cunha). Kosovo's
// XK stays: it is user-assigned, but the Commission and the schemes use it.
const KEINE_LAENDER = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', 'AC', 'CP', 'CQ', 'DG', 'EA', 'IC', 'TA']);

let regionen: Intl.DisplayNames | undefined;
const ZWEI_BUCHSTABEN = /^[A-Z]{2}$/;

/**
 * An ISO 3166-1 alpha-2 country code, upper case. A withdrawn code that ICU still names (UK, YU, SU, ZR…) is
 * refused: the runtime maps it to its successor (GB, RS, RU, CD), and a certificate must carry the current one.
 */
export function isLand(code: unknown): code is string {
  if (typeof code !== 'string' || !ZWEI_BUCHSTABEN.test(code) || KEINE_LAENDER.has(code)) return false;
  regionen ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  if (regionen.of(code) === undefined) return false;
  return Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
}

const listen = new Map<'de' | 'en', readonly { code: string; name: string }[]>();

/** Every country with its name in the language, sorted by that name, for a select. Built once per language. */
export function laenderListe(lang: 'de' | 'en'): readonly { code: string; name: string }[] {
  let liste = listen.get(lang);
  if (!liste) {
    const namen = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' });
    const codes: string[] = [];
    for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) codes.push(String.fromCharCode(a, b));
    const sortierung = new Intl.Collator(lang);
    liste = Object.freeze(
      codes
        .filter(isLand)
        .map((code) => ({ code, name: namen.of(code) ?? code }))
        .sort((x, y) => sortierung.compare(x.name, y.name)),
    );
    listen.set(lang, liste);
  }
  return liste;
}
