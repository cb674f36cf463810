// The props of the Bilanz editor island (islands/bilanz-editor): the Bilanz as the API shows it, whether the
// user may change it, and every text the island shows, translated here in the page's language. Texts with values
// keep them as {name} placeholders, filled in the browser (islands/bilanz-editor/model.ts `fill`). The island
// imports the type of `texte`, so a text it uses and this list cannot drift apart unnoticed (tsc).
import type { ChoiceOptions } from '../../records/list/engine.js';
import type { BilanzDetail } from './detail.js';

type T = (key: string, params?: Record<string, unknown>) => string;

/** A change a plain form of the page posted and the server refused: the island shows it at its own form. */
export interface EditorFehler {
  form: string;
  values: Record<string, unknown>;
  errors: Record<string, string>;
}

export function editorTexte(t: T, id: number) {
  const b = (key: string, params?: Record<string, unknown>) => t(`bilanzen:${key}`, params);
  const e = (key: string, params?: Record<string, unknown>) => t(`bilanz-editor:${key}`, params);
  return {
    titel: b('detailTitle', { id }),
    statusOffen: b('status.offen'),
    statusGeschlossen: b('status.geschlossen'),
    nichtVerteilt: b('nichtVerteilt'),
    geschlossenHinweis: e('geschlossenHinweis'),
    nurLesen: e('nurLesen'),
    // Key figures
    kennzahlen: b('abschnitte.kennzahlen'),
    mengeGesamt: b('fields.mengeGesamt'),
    bioMenge: b('fields.bioMenge'),
    zugeordnet: b('fields.zugeordnet'),
    restBioMenge: b('fields.restBioMenge'),
    biogehalt: b('fields.biogehalt'),
    thgMinderungT: b('fields.thgMinderungT'),
    kennzahlNichtVerteilt: b('kennzahl.nichtVerteilt'),
    verteiltAm: b('kennzahl.verteiltAm', { datum: '{datum}' }),
    geschlossenAm: b('kennzahl.geschlossenAm', { datum: '{datum}' }),
    // Actions
    aktionen: b('abschnitte.aktionen'),
    verteilen: b('aktionen.verteilen'),
    neuVerteilen: b('aktionen.neuVerteilen'),
    vorschau: b('aktionen.vorschau'),
    zuruecksetzen: b('aktionen.zuruecksetzen'),
    abschliessen: b('aktionen.abschliessen'),
    loeschen: b('aktionen.loeschen'),
    vorschauBadge: e('vorschau.badge'),
    vorschauHinweis: e('vorschau.hinweis', { zugeordnet: '{zugeordnet}', rest: '{rest}' }),
    vorschauVerwerfen: e('vorschau.verwerfen'),
    vorschauBerechnet: e('vorschau.berechnet'),
    vorschauVerworfen: e('vorschau.verworfen'),
    verteilt: b('flash.verteilt'),
    zurueckgesetzt: b('flash.zurueckgesetzt'),
    gespeichert: b('flash.gespeichert'),
    geteilt: b('flash.geteilt'),
    positionAngelegt: b('flash.positionAngelegt'),
    positionGeloescht: b('flash.positionGeloescht'),
    neuGeladen: e('meldungen.neuGeladen'),
    fehler: e('meldungen.fehler'),
    laeuft: e('meldungen.laeuft'),
    // Positions
    positionen: b('abschnitte.positionen'),
    positionenHinweis: b('hints.positionen'),
    leerPositionen: b('leer.positionen'),
    partner: b('fields.partner'),
    prioritaet: b('fields.prioritaet'),
    positionBiogehalt: b('fields.positionBiogehalt'),
    positionBioMenge: b('fields.positionBioMenge'),
    status: b('fields.status'),
    aktion: b('fields.aktion'),
    position: b('fields.position'),
    feld: e('positionen.feld', { feld: '{feld}', partner: '{partner}', position: '{position}' }),
    fuerPosition: e('positionen.fuerPosition', { position: '{position}' }),
    geaendert: e('positionen.geaendert'),
    speichern: b('aktionen.positionSpeichern'),
    teilenOeffnen: b('aktionen.teilen'),
    teilen: b('aktionen.jetztTeilen'),
    positionAbschliessen: b('aktionen.positionAbschliessen'),
    positionLoeschen: b('aktionen.positionLoeschen'),
    abbrechen: b('aktionen.abbrechen'),
    teilenTitel: e('positionen.teilenTitel', { position: '{position}' }),
    neuerTeil: e('positionen.neuerTeil', { einheit: '{einheit}' }),
    neuePrioritaet: e('positionen.neuePrioritaet'),
    neuePrioritaetHinweis: b('hints.teilPrioritaet'),
    bleibt: e('positionen.bleibt', { position: '{position}', menge: '{menge}' }),
    teilMengeZuGross: b('errors.teilMengeZuGross', { menge: '{menge}', einheit: '{einheit}' }),
    neuePosition: b('abschnitte.neuePosition'),
    hinzufuegen: b('aktionen.hinzufuegen'),
    // Allocation lines
    zuordnungen: b('abschnitte.zuordnungen'),
    zeile: b('fields.zeile'),
    lieferung: b('fields.lieferung'),
    lieferdatum: b('fields.lieferdatum'),
    nachweis: b('fields.nachweis'),
    menge: b('fields.menge'),
    laufsumme: e('zeilen.laufsumme'),
    thg: b('fields.thg'),
    poc: b('fields.poc'),
    begruendung: b('fields.begruendung'),
    vorlaeufig: b('fields.vorlaeufig'),
    begruendungZeigen: e('zeilen.begruendungZeigen', { nr: '{nr}' }),
    filter: e('zeilen.filter'),
    filterHinweis: e('zeilen.filterHinweis'),
    sortierHinweis: e('zeilen.sortierHinweis'),
    keineTreffer: e('zeilen.keineTreffer', { filter: '{filter}' }),
    anzahl: e('zeilen.anzahl', { anzahl: '{anzahl}', gesamt: '{gesamt}' }),
    summe: b('abschluss.summeLabel'),
    summeGezeigt: e('zeilen.summeGezeigt'),
    leerZuordnungen: b('leer.zuordnungen'),
    leerZuordnungenVerteilt: b('leer.zuordnungenVerteilt'),
    nichtGedeckt: b('abschnitte.nichtGedeckt'),
    leerNichtGedeckt: b('leer.nichtGedeckt'),
    nachweise: b('abschnitte.nachweise'),
    leerNachweise: b('leer.nachweise'),
    // Period and comment (a plain form, posted to the page)
    zeitraum: b('abschnitte.zeitraum'),
    zeitraumHinweis: b('hints.zeitraum'),
    zeitraumVon: b('fields.zeitraumVon'),
    zeitraumBis: b('fields.zeitraumBis'),
    kommentar: b('fields.kommentar'),
    zeitraumSpeichern: b('aktionen.speichern'),
  };
}

export type EditorTexte = ReturnType<typeof editorTexte>;

export interface EditorProps {
  bilanz: BilanzDetail;
  darfBearbeiten: boolean;
  lang: string;
  /** The Bilanz's page (the close and split pages lie below it). */
  hier: string;
  partner: { value: string; label: string }[];
  /** The user's date format and time zone (settings), as the server's pages write dates. */
  datumsformat: string;
  zeitzone: string;
  /** A plain form's refused change, shown at that form. */
  fehler: EditorFehler | null;
  texte: EditorTexte;
}

export function editorProps(
  bilanz: BilanzDetail,
  o: {
    lang: string; darfBearbeiten: boolean; hier: string; t: T; partner: ChoiceOptions;
    datumsformat?: string; zeitzone?: string; fehler?: EditorFehler | null;
  },
): EditorProps {
  return {
    bilanz,
    darfBearbeiten: o.darfBearbeiten,
    lang: o.lang,
    hier: o.hier,
    partner: o.partner.map((c) => ({ value: c.value, label: c.raw ? c.label : o.t(c.label) })),
    datumsformat: o.datumsformat ?? 'dd.MM.yyyy',
    zeitzone: o.zeitzone ?? 'Europe/Berlin',
    fehler: o.fehler ?? null,
    texte: editorTexte(o.t, bilanz.id),
  };
}
