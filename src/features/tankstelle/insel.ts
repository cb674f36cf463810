// The props of the Tankstelle island (islands/tankstelle): where the page stands (location, view, product), how
// the user writes dates and in which time zone, the traffic lights' badges, and every text the island shows,
// translated here in the page's language from the same keys the server's views use. Texts with values keep them
// as {name} placeholders, filled in the browser (islands/tankstelle/model.ts `fill`). The island imports the
// type, so a text it uses and this list cannot drift apart unnoticed (tsc).
import { TANK_AMPELN, AMPEL_DARSTELLUNG, type TankAmpel } from '../../domain/tankampel.js';
import { LIEFERSTATUS, type Lieferstatus } from '../lieferungen/names.js';

type T = (key: string, params?: Record<string, unknown>) => string;

export type BadgeVariante = 'neutral' | 'info' | 'success' | 'warning' | 'error';
export type AmpelFarbe = (typeof AMPEL_DARSTELLUNG)[TankAmpel]['farbe'];
/** The badge variant of each traffic-light colour (routes.ts AMPEL_VARIANTE, as the server's views use it). */
export type Varianten = Readonly<Record<AmpelFarbe, BadgeVariante>>;

const ZERTIFIKAT = ['keine', 'ohne_endgueltige', 'mit_endgueltigen'] as const;
const VERKNUEPFUNG = ['nicht_verknuepft', 'vorlaeufig', 'endgueltig'] as const;
const je = <K extends string>(keys: readonly K[], text: (k: K) => string) => Object.fromEntries(keys.map((k) => [k, text(k)])) as Record<K, string>;

export function inselTexte(t: T, varianten: Varianten) {
  const k = (key: string, params?: Record<string, unknown>) => t(`tankstelle:${key}`, params);
  return {
    standort: k('standort.label'),
    ansichtenNav: k('ansichtenNav'),
    ansichten: { tanks: k('ansichten.tanks'), zapfsaeulen: k('ansichten.zapfsaeulen'), lieferkette: k('ansichten.lieferkette') },
    tank: {
      liste: k('tank.liste', { standort: '{standort}' }),
      gauge: k('tank.gauge', { produkt: '{produkt}', wert: '{wert}' }),
      gaugeUnbekannt: k('tank.gaugeUnbekannt', { produkt: '{produkt}' }),
      keinBestand: k('tank.keinBestand'),
      bestandVom: k('tank.bestandVom', { datum: '{datum}' }),
      bioAnteil: k('tank.bioAnteil'),
      bioMenge: k('tank.bioMenge'),
      gedeckt: k('tank.gedeckt'),
      verbrauch: k('tank.verbrauch'),
      reichweite: k('tank.reichweite'),
      // The plural forms as they are (German and English have one and other), chosen in the browser by Intl.PluralRules.
      tage: { one: k('tank.tage_one', { count: '{count}' }), other: k('tank.tage_other', { count: '{count}' }) },
      unbegrenzt: k('tank.unbegrenzt'),
      aktiv: k('tank.aktiv'),
      nachfolger: k('tank.nachfolger'),
      ja: k('tank.ja'),
      nein: k('tank.nein'),
      ampel: k('tank.ampel'),
      ketteLink: k('tank.ketteLink', { produkt: '{produkt}' }),
    },
    leer: { tanks: k('leer.tanks'), zapfsaeulen: k('leer.zapfsaeulen'), letzte: k('leer.letzte') },
    legende: {
      heading: k('legende.heading'),
      regel: k('legende.regel', { reichweite: '{reichweite}', verbrauch: '{verbrauch}' }),
      ampeln: TANK_AMPELN.map((a) => ({
        ampel: a,
        text: k(`ampel.${a}`),
        beschreibung: k(`legende.${a}`, { reichweite: '{reichweite}' }),
        icon: AMPEL_DARSTELLUNG[a].icon,
        variante: varianten[AMPEL_DARSTELLUNG[a].farbe],
      })),
    },
    zapfsaeulen: {
      heading: k('zapfsaeulen.heading', { von: '{von}', bis: '{bis}' }),
      hinweis: k('zapfsaeulen.hinweis'),
      menge: k('zapfsaeulen.menge'),
      bioMenge: k('zapfsaeulen.bioMenge'),
      anzahl: k('zapfsaeulen.anzahl'),
      tabelle: k('zapfsaeulen.tabelle', { produkt: '{produkt}' }),
      nr: k('zapfsaeulen.nr'),
      datum: k('zapfsaeulen.datum'),
      partner: k('zapfsaeulen.partner'),
      status: k('zapfsaeulen.status'),
      mehr: k('zapfsaeulen.mehr', { anzahl: '{anzahl}' }),
    },
    kette: {
      tank: k('kette.tank'),
      heading: k('kette.heading', { produkt: '{produkt}' }),
      intro: k('kette.intro'),
      bioInhalt: k('kette.bioInhalt'),
      keinBestand: k('kette.keinBestand'),
      keineTanks: k('kette.keineTanks'),
      tabelle: k('kette.tabelle', { produkt: '{produkt}' }),
      einlieferung: k('kette.einlieferung'),
      datum: k('kette.datum'),
      partner: k('kette.partner'),
      bioMenge: k('kette.bioMenge'),
      anteil: k('kette.anteil'),
      abholung: k('kette.abholung'),
      nachweise: k('kette.nachweise'),
      verfolgen: k('kette.verfolgen'),
      verfolgenLabel: k('kette.verfolgenLabel', { nr: '{nr}' }),
      keineNachweise: k('kette.keineNachweise'),
      vorlaeufig: k('kette.vorlaeufig'),
      ohneHerkunft: k('kette.ohneHerkunft'),
      ohneHerkunftHinweis: k('kette.ohneHerkunftHinweis'),
      summe: k('kette.summe'),
    },
    letzte: {
      heading: k('letzte.heading'),
      art: k('letzte.art'),
      ein: k('letzte.ein'),
      ab: k('letzte.ab'),
      nr: k('letzte.nr'),
      datum: k('letzte.datum'),
      partner: k('letzte.partner'),
      produkt: k('letzte.produkt'),
      menge: k('letzte.menge'),
      status: k('letzte.status'),
    },
    lieferstatus: je<Lieferstatus>(LIEFERSTATUS, (s) => t(`bewegungsdaten:status.${s}`)),
    zertifikatStatus: je(ZERTIFIKAT, (s) => t(`zuordnung:status.${s}`)),
    verknuepfung: je(VERKNUEPFUNG, (s) => t(`einlieferungen:verknuepfung.${s}`)),
    laden: {
      fehler: k('laden.fehler'),
      erneut: k('laden.erneut'),
      laedt: k('laden.laedt'),
      geladen: k('laden.geladen', { ansicht: '{ansicht}', standort: '{standort}' }),
      aktualisiert: k('laden.aktualisiert', { zeit: '{zeit}' }),
    },
  };
}

export type InselTexte = ReturnType<typeof inselTexte>;

export interface InselProps {
  lang: string;
  standortNr: string;
  ansicht: 'tanks' | 'zapfsaeulen' | 'lieferkette';
  produktNr: string | null;
  /** The user's date format and time zone (settings), as the server's `fmt` uses them. */
  datumsformat: string;
  zeitzone: string;
  varianten: Varianten;
  labels: InselTexte;
}

export function inselProps(p: Omit<InselProps, 'labels'> & { t: T }): InselProps {
  const { t, ...rest } = p;
  return { ...rest, labels: inselTexte(t, p.varianten) };
}
