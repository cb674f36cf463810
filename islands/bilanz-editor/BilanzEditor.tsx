// The Bilanz editor: the server's Bilanz page, kept in place while the user works on it. Key figures and badges,
// the operations (allocate, preview, reset; close and delete stay the server's pages and forms), the positions
// with inline editing and splitting, the allocation lines with order, filter, running total and reasons, what
// stays not covered, the certificates, and the period form. Every change goes to the JSON API with the version
// last seen; the answer is the Bilanz after it, which replaces what is shown. A stale version reloads the Bilanz
// and says so. Every text arrives translated in the props; the numbers are formatted in the page's language.
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { BilanzDetail, BilanzPosition } from '../../src/features/bilanzen/detail';
import type { EditorProps } from '../../src/features/bilanzen/editor';
import { ApiError, api, shellConfig } from '../lib/api';
import { showNoPermission } from '../lib/dialogs';
import { datum, fill, jePosition, menge, parseZahl, vorschauZeilen, zahl, zeitpunkt, type Vorschau } from './model';
import { PositionenGrid, wertVon, type Entwurf, type Feld, type Fehler, type Teilung } from './PositionenGrid';
import { ZeilenGrid } from './ZeilenGrid';
import { iconHref } from '../lib/icons';

export type BilanzEditorProps = EditorProps;

type Antwort = { success: true; data: BilanzDetail };
type Problem = { code?: string; message?: string; errors?: { field: string; message: string }[] };

/** A typed number as the API wants it; what the browser cannot read goes as typed, for the server to name. */
const alsZahl = (v: string, lang: string) => {
  const n = parseZahl(v, lang);
  return n === undefined ? v.trim() : n;
};

/** The props' refused form (a plain form of the page) as the island's error at that form. */
function fehlerAusProps(f: EditorProps['fehler']): Fehler | null {
  if (!f || !Object.keys(f.errors).length) return null;
  return { bereich: f.form, message: f.errors._ ?? Object.values(f.errors)[0], felder: f.errors };
}

function Stat({ label, value, note }: { label: string; value: string; note?: string | null }) {
  return (
    <div className="stat">
      <dt className="stat-label">{label}</dt>
      <dd className="stat-value">{value}</dd>
      {note && <dd className="stat-note">{note}</dd>}
    </div>
  );
}

function Alert({ text, id }: { text: string; id?: string }) {
  return (
    <div className="alert alert-error" role="alert" id={id}>
      <svg className="icon" aria-hidden="true"><use href={iconHref('warning')} /></svg>
      <p>{text}</p>
    </div>
  );
}

export function BilanzEditor(props: BilanzEditorProps) {
  const { texte, lang, hier } = props;
  const [bilanz, setBilanz] = useState(props.bilanz);
  const [vorschau, setVorschau] = useState<Vorschau | null>(null);
  const [beschaeftigt, setBeschaeftigt] = useState(false);
  const [fehler, setFehler] = useState<Fehler | null>(() => fehlerAusProps(props.fehler));
  const [meldung, setMeldung] = useState('');
  const [entwuerfe, setEntwuerfe] = useState<Record<number, Entwurf>>({});
  const [teilung, setTeilung] = useState<Teilung | null>(null);
  const neuWerte = props.fehler?.form === 'neuePosition' ? props.fehler.values : {};
  const [neu, setNeu] = useState(() => ({
    partnerNr: String(neuWerte.partnerNr ?? ''), prioritaet: String(neuWerte.prioritaet ?? ''), biogehalt: String(neuWerte.biogehalt ?? ''), bioMenge: String(neuWerte.bioMenge ?? ''),
  }));
  const busy = useRef(false);
  // Where keyboard focus goes once the change is shown, so it is never lost with a button that disappeared.
  const fokus = useRef<string | null>(null);
  useEffect(() => {
    if (!fokus.current) return;
    document.getElementById(fokus.current)?.focus();
    fokus.current = null;
  });

  const bearbeitbar = props.darfBearbeiten && bilanz.status === 'offen';
  const m = (v: string | null) => menge(v, bilanz.einheit, lang);
  const fehlerIn = (bereich: string) => (fehler?.bereich === bereich ? fehler : null);
  const pfad = `/bilanzen/${bilanz.id}`;

  async function neuLaden() {
    try {
      const res = await api<{ data: BilanzDetail }>(pfad);
      setBilanz(res.data);
      setVorschau(null);
    } catch {
      /* the message about the refused change stands; the page can be reloaded */
    }
  }

  /**
   * One change through the API: nothing else while it runs; done → the Bilanz it answers, a message; refused →
   * the server's message at `bereich` (a stale version or a Bilanz closed meanwhile: reloaded first).
   */
  async function aendern(bereich: string, call: () => Promise<Antwort>, erfolg: string, danach?: () => void): Promise<void> {
    if (busy.current) return;
    busy.current = true;
    setBeschaeftigt(true);
    setFehler(null);
    setMeldung(texte.laeuft);
    try {
      const res = await call();
      setBilanz(res.data);
      setVorschau(null);
      setMeldung(erfolg);
      danach?.();
    } catch (err) {
      setMeldung('');
      if (!(err instanceof ApiError)) {
        setFehler({ bereich, message: texte.fehler, felder: {} });
      } else if (err.status === 403) {
        showNoPermission();
      } else if (err.status !== 401) {
        const body = (err.body ?? {}) as Problem;
        const felder = Object.fromEntries((body.errors ?? []).map((e) => [e.field.replace(/^teile\.\d+\./, ''), e.message]));
        if (err.status === 409 || err.status === 404) {
          await neuLaden();
          const message = body.code === 'VERSION_CONFLICT' ? `${err.message} ${texte.neuGeladen}` : err.message;
          setFehler({ bereich, message, felder });
        } else {
          setFehler({ bereich, message: err.message || texte.fehler, felder });
        }
      }
    } finally {
      busy.current = false;
      setBeschaeftigt(false);
    }
  }

  const post = (path: string, body: Record<string, unknown> = {}, method = 'POST') => () =>
    api<Antwort>(`${pfad}${path}`, { method, body: JSON.stringify({ ...body, version: bilanz.version }) });

  const verteilen = () => aendern('aktionen', post('/verteilung'), texte.verteilt);
  const zuruecksetzen = () => aendern('aktionen', post('/zuruecksetzen'), texte.zurueckgesetzt, () => (fokus.current = 'be-verteilen'));

  async function vorschauBerechnen() {
    if (busy.current) return;
    busy.current = true;
    setBeschaeftigt(true);
    setFehler(null);
    try {
      const res = await api<{ data: Vorschau }>(`${pfad}/verteilung?vorschau=1`, { method: 'POST', body: JSON.stringify({ version: bilanz.version }) });
      setVorschau(res.data);
      setMeldung(texte.vorschauBerechnet);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) showNoPermission();
      else if (!(err instanceof ApiError && err.status === 401)) {
        if (err instanceof ApiError && (err.status === 409 || err.status === 404)) await neuLaden();
        setFehler({ bereich: 'aktionen', message: err instanceof ApiError ? `${err.message}${(err.body as Problem)?.code === 'VERSION_CONFLICT' ? ` ${texte.neuGeladen}` : ''}` : texte.fehler, felder: {} });
      }
    } finally {
      busy.current = false;
      setBeschaeftigt(false);
    }
  }

  function vorschauVerwerfen() {
    setVorschau(null);
    setMeldung(texte.vorschauVerworfen);
    fokus.current = 'be-vorschau';
  }

  const setEntwurf = (id: number, feld: Feld, wert: string) =>
    setEntwuerfe((e) => {
      const p = bilanz.positionen.find((x) => x.id === id)!;
      const alt = e[id] ?? { prioritaet: wertVon(p, undefined, 'prioritaet', lang), biogehalt: wertVon(p, undefined, 'biogehalt', lang), bioMenge: wertVon(p, undefined, 'bioMenge', lang) };
      return { ...e, [id]: { ...alt, [feld]: wert } };
    });
  const entwurfWeg = (id: number) => setEntwuerfe(({ [id]: _weg, ...rest }) => rest);

  function speichern(p: BilanzPosition) {
    const w = (f: Feld) => wertVon(p, entwuerfe[p.id], f, lang);
    return aendern(
      `position-${p.id}`,
      post(`/positionen/${p.id}`, { prioritaet: alsZahl(w('prioritaet'), lang), biogehalt: alsZahl(w('biogehalt'), lang), bioMenge: alsZahl(w('bioMenge'), lang) }, 'PUT'),
      texte.gespeichert,
      () => entwurfWeg(p.id),
    );
  }

  function teilen(p: BilanzPosition, t: { bleibt: string; neu: string; prioritaet: string }) {
    const prioritaet = t.prioritaet.trim() ? alsZahl(t.prioritaet, lang) : null;
    return aendern(`teilung-${p.id}`, post(`/positionen/${p.id}/teilung`, { teile: [{ bioMenge: t.bleibt }, { bioMenge: t.neu, prioritaet }] }), texte.geteilt, () => {
      setTeilung(null);
      entwurfWeg(p.id);
      fokus.current = `bp-${p.id}-teilen`;
    });
  }

  function hinzufuegen(e: FormEvent) {
    e.preventDefault();
    return aendern(
      'neuePosition',
      post('/positionen', { partnerNr: neu.partnerNr, prioritaet: alsZahl(neu.prioritaet, lang), biogehalt: alsZahl(neu.biogehalt, lang), bioMenge: alsZahl(neu.bioMenge, lang) }),
      texte.positionAngelegt,
      () => setNeu({ partnerNr: '', prioritaet: '', biogehalt: '', bioMenge: '' }),
    );
  }

  const zeilen = useMemo(() => (vorschau ? vorschauZeilen(vorschau, bilanz.positionen) : bilanz.zuordnungen), [vorschau, bilanz]);
  const vorschauJePosition = useMemo(() => (vorschau ? jePosition(zeilen) : null), [vorschau, zeilen]);
  const nichtGedeckt = vorschau ? vorschau.nichtGedeckt : bilanz.verteilt ? bilanz.nichtGedeckt : null;
  const positionName = (id: number) => {
    const p = bilanz.positionen.find((x) => x.id === id);
    return p ? `${p.partnerName} (${texte.prioritaet} ${p.prioritaet})` : String(id);
  };
  const csrf = shellConfig()?.csrf ?? '';
  const geschlossenePosition = bilanz.positionen.some((p) => p.status === 'geschlossen');
  const aktionsFehler = fehlerIn('aktionen');
  const neuFehler = fehlerIn('neuePosition');
  const zeitraumFehler = props.fehler?.form === 'zeitraum' ? props.fehler : null;
  const zeitraumWert = (f: string, fallback: string) => String(zeitraumFehler?.values[f] ?? fallback);
  // An error whose place is not on the page (the actions of a Bilanz closed meanwhile, a position deleted by
  // someone else) shows at the top instead of nowhere.
  const anPlatz = (bereich: string) => {
    if (bereich === 'aktionen' || bereich === 'neuePosition' || bereich === 'zeitraum') return bearbeitbar;
    const m = /^(position|teilung)-(\d+)$/.exec(bereich);
    const p = m && bilanz.positionen.find((x) => x.id === Number(m[2]));
    if (!m || !p) return false;
    return m[1] === 'position' || (bearbeitbar && p.status === 'offen' && p.bioMenge != null && teilung?.positionId === p.id);
  };
  const anderesFehler = fehler && !anPlatz(fehler.bereich) ? fehler : null;

  return (
    <>
      <div className="page-head">
        <h1>
          {texte.titel}{' '}
          <span className={`badge badge-${bilanz.status === 'offen' ? 'info' : 'success'}`}>{bilanz.status === 'offen' ? texte.statusOffen : texte.statusGeschlossen}</span>
          {bilanz.status === 'offen' && !bilanz.verteilt && <> <span className="badge badge-warning">{texte.nichtVerteilt}</span></>}
        </h1>
      </div>
      <p className="page-intro">
        {bilanz.standortName} ({bilanz.standortNr}) · {bilanz.produktName} ({bilanz.produktNr}) · {datum(bilanz.zeitraumVon, props.datumsformat)} – {datum(bilanz.zeitraumBis, props.datumsformat)}
      </p>
      {bilanz.status === 'geschlossen' && <p className="alert alert-info">{texte.geschlossenHinweis}</p>}
      {bilanz.status === 'offen' && !props.darfBearbeiten && <p className="hint">{texte.nurLesen}</p>}
      {anderesFehler && <Alert text={anderesFehler.message} />}

      <section aria-labelledby="kennzahlen-heading">
        <h2 id="kennzahlen-heading" className="visually-hidden">{texte.kennzahlen}</h2>
        <dl className="stat-grid">
          <Stat label={texte.mengeGesamt} value={m(bilanz.mengeGesamt)} />
          <Stat label={texte.bioMenge} value={m(bilanz.bioMenge)} />
          <Stat
            label={texte.zugeordnet} value={m(bilanz.zugeordnet)}
            note={bilanz.biogehalt == null ? (bilanz.verteilt ? null : texte.kennzahlNichtVerteilt) : `${texte.biogehalt} ${zahl(bilanz.biogehalt, lang, 2)}\u00a0%`}
          />
          <Stat label={texte.restBioMenge} value={m(bilanz.restBioMenge)} />
          <Stat
            label={texte.thgMinderungT} value={zahl(bilanz.thgMinderungT, lang, 2)}
            note={bilanz.geschlossenAm ? fill(texte.geschlossenAm, { datum: zeitpunkt(bilanz.geschlossenAm, props.datumsformat, props.zeitzone) })
              : bilanz.verteiltAm ? fill(texte.verteiltAm, { datum: zeitpunkt(bilanz.verteiltAm, props.datumsformat, props.zeitzone) }) : null}
          />
        </dl>
      </section>

      {bearbeitbar && (
        <section className="card" aria-labelledby="aktionen-heading">
          <h2 id="aktionen-heading" className="card-title">{texte.aktionen}</h2>
          {aktionsFehler && <Alert text={aktionsFehler.message} />}
          <div className="button-row">
            <button type="button" id="be-verteilen" className="btn btn-primary" aria-disabled={beschaeftigt || undefined} onClick={verteilen}>
              {bilanz.verteilt ? texte.neuVerteilen : texte.verteilen}
            </button>
            <button type="button" id="be-vorschau" className="btn btn-secondary" aria-disabled={beschaeftigt || undefined} onClick={vorschauBerechnen}>
              {texte.vorschau}
            </button>
            {bilanz.verteilt && (
              <>
                <button type="button" className="btn btn-secondary" aria-disabled={beschaeftigt || undefined} onClick={zuruecksetzen}>{texte.zuruecksetzen}</button>
                <a className="btn btn-secondary" href={`${hier}/abschluss`}>
                  <svg className="icon" aria-hidden="true"><use href={iconHref('check')} /></svg>
                  {texte.abschliessen}
                </a>
              </>
            )}
            {!geschlossenePosition && (
              // Deleting leaves the page: the server's form, with the version shown here.
              <form method="post" action={`${hier}/loeschen`}>
                <input type="hidden" name="_csrf" value={csrf} />
                <input type="hidden" name="version" value={bilanz.version} />
                <button type="submit" className="btn btn-danger">
                  <svg className="icon" aria-hidden="true"><use href={iconHref('trash')} /></svg>
                  {texte.loeschen}
                </button>
              </form>
            )}
          </div>
          <p className="bilanz-status" role="status">{meldung}</p>
        </section>
      )}

      <section className="stack" aria-labelledby="positionen-heading">
        <h2 id="positionen-heading">{texte.positionen}</h2>
        {bearbeitbar && <p className="hint">{texte.positionenHinweis}</p>}
        <PositionenGrid
          positionen={bilanz.positionen} einheit={bilanz.einheit} lang={lang} hier={hier} texte={texte} bearbeitbar={bearbeitbar} verteilt={bilanz.verteilt}
          beschaeftigt={beschaeftigt} fehler={fehler} entwuerfe={entwuerfe} setEntwurf={setEntwurf} speichern={speichern} csrf={csrf} version={bilanz.version}
          teilung={teilung} setTeilung={setTeilung} teilen={teilen} vorschauJePosition={vorschauJePosition}
        />
        {bearbeitbar && (
          <form className="card form-card" onSubmit={hinzufuegen} noValidate aria-labelledby="neue-position-heading">
            <h3 id="neue-position-heading" className="card-title">{texte.neuePosition}</h3>
            {neuFehler && <Alert text={neuFehler.message} />}
            <div className="form-grid">
              <NeuFeld id="np-partnerNr" label={texte.partner} required fehler={neuFehler?.felder.partnerNr}>
                {(a) => (
                  <select {...a} value={neu.partnerNr} onChange={(e) => setNeu({ ...neu, partnerNr: e.currentTarget.value })}>
                    <option value="" />
                    {props.partner.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
                  </select>
                )}
              </NeuFeld>
              <NeuFeld id="np-prioritaet" label={texte.prioritaet} required fehler={neuFehler?.felder.prioritaet}>
                {(a) => <input {...a} inputMode="numeric" value={neu.prioritaet} onChange={(e) => setNeu({ ...neu, prioritaet: e.currentTarget.value })} />}
              </NeuFeld>
              <NeuFeld id="np-biogehalt" label={texte.positionBiogehalt} fehler={neuFehler?.felder.biogehalt}>
                {(a) => <input {...a} inputMode="decimal" value={neu.biogehalt} onChange={(e) => setNeu({ ...neu, biogehalt: e.currentTarget.value })} />}
              </NeuFeld>
              <NeuFeld id="np-bioMenge" label={`${texte.positionBioMenge} (${bilanz.einheit})`} fehler={neuFehler?.felder.bioMenge}>
                {(a) => <input {...a} inputMode="decimal" value={neu.bioMenge} onChange={(e) => setNeu({ ...neu, bioMenge: e.currentTarget.value })} />}
              </NeuFeld>
            </div>
            <div className="button-row">
              <button type="submit" className="btn btn-secondary" aria-disabled={beschaeftigt || undefined}>
                <svg className="icon" aria-hidden="true"><use href={iconHref('plus')} /></svg>
                {texte.hinzufuegen}
              </button>
            </div>
          </form>
        )}
      </section>

      <section className="stack" aria-labelledby="zuordnungen-heading">
        <h2 id="zuordnungen-heading">
          {texte.zuordnungen}
          {vorschau && <> <span className="badge badge-warning">{texte.vorschauBadge}</span></>}
        </h2>
        {vorschau && (
          <div className="alert alert-info bilanz-vorschau">
            <p>{fill(texte.vorschauHinweis, { zugeordnet: m(vorschau.zugeordnet), rest: m(vorschau.restBioMenge) })}</p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={vorschauVerwerfen}>{texte.vorschauVerwerfen}</button>
          </div>
        )}
        <ZeilenGrid
          zeilen={zeilen} einheit={bilanz.einheit} restBioMenge={vorschau ? vorschau.restBioMenge : bilanz.restBioMenge} lang={lang}
          datumsformat={props.datumsformat} texte={texte} vorschau={vorschau != null}
          leer={bilanz.verteilt || vorschau ? texte.leerZuordnungenVerteilt : texte.leerZuordnungen}
        />
      </section>

      {nichtGedeckt && (
        <section className="stack" aria-labelledby="nicht-gedeckt-heading">
          <h2 id="nicht-gedeckt-heading">
            {texte.nichtGedeckt}
            {vorschau && <> <span className="badge badge-warning">{texte.vorschauBadge}</span></>}
          </h2>
          {nichtGedeckt.length === 0 ? (
            <p className="muted">{texte.leerNichtGedeckt}</p>
          ) : (
            <ul className="plain-list">
              {nichtGedeckt.map((n) => (
                <li key={`${n.ablieferungNr}-${n.positionId}`}>
                  <a href={`/${lang}/bewegungsdaten/ablieferungen/${encodeURIComponent(n.ablieferungNr)}`}>{n.ablieferungNr}</a>: {m(n.offen)} · {positionName(n.positionId)}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section className="stack" aria-labelledby="nachweise-heading">
        <h2 id="nachweise-heading">{texte.nachweise}</h2>
        {bilanz.nachweise.length === 0 ? (
          <p className="muted">{texte.leerNachweise}</p>
        ) : (
          <ul className="plain-list">
            {bilanz.nachweise.map((n) => (
              <li key={n.nachweisNr}>
                <a href={`/${lang}/bewegungsdaten/nachweise/${encodeURIComponent(n.nachweisNr)}`}>{n.nachweisNr}</a>: {m(n.menge)}
                {n.vorlaeufig && ` (${texte.vorlaeufig})`}
              </li>
            ))}
          </ul>
        )}
      </section>

      {bearbeitbar ? (
        // A plain form posted to the page, as without JavaScript; rendered here so it sends the version shown.
        <form method="post" action={hier} className="card form-card" noValidate aria-labelledby="zeitraum-heading">
          <h2 id="zeitraum-heading" className="card-title">{texte.zeitraum}</h2>
          <input type="hidden" name="_csrf" value={csrf} />
          <input type="hidden" name="version" value={bilanz.version} />
          {zeitraumFehler?.errors._ && <Alert text={zeitraumFehler.errors._} />}
          <p className="hint">{texte.zeitraumHinweis}</p>
          <div className="form-grid">
            <NeuFeld id="z-zeitraumVon" label={texte.zeitraumVon} required fehler={zeitraumFehler?.errors.zeitraumVon}>
              {(a) => <input {...a} name="zeitraumVon" type="date" defaultValue={zeitraumWert('zeitraumVon', bilanz.zeitraumVon)} />}
            </NeuFeld>
            <NeuFeld id="z-zeitraumBis" label={texte.zeitraumBis} required fehler={zeitraumFehler?.errors.zeitraumBis}>
              {(a) => <input {...a} name="zeitraumBis" type="date" defaultValue={zeitraumWert('zeitraumBis', bilanz.zeitraumBis)} />}
            </NeuFeld>
            <NeuFeld id="z-kommentar" label={texte.kommentar} fehler={zeitraumFehler?.errors.kommentar}>
              {(a) => <textarea {...a} name="kommentar" maxLength={2000} defaultValue={zeitraumWert('kommentar', bilanz.kommentar ?? '')} />}
            </NeuFeld>
          </div>
          <div className="button-row"><button type="submit" className="btn btn-secondary">{texte.zeitraumSpeichern}</button></div>
        </form>
      ) : (
        bilanz.kommentar && <p><strong>{texte.kommentar}:</strong> {bilanz.kommentar}</p>
      )}
    </>
  );
}

/** A labelled field as the server's field partial draws it: label, required mark, the error above the input. */
function NeuFeld(p: {
  id: string; label: string; required?: boolean; fehler?: string;
  children: (a: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string; required?: boolean }) => ReactNode;
}) {
  const errId = `${p.id}-error`;
  return (
    <div className={`field${p.fehler ? ' has-error' : ''}`}>
      <label htmlFor={p.id}>
        {p.label}
        {p.required && <span className="required" aria-hidden="true">{'\u00a0'}*</span>}
      </label>
      {p.fehler && (
        <p className="error-text" id={errId}>
          <svg className="icon" aria-hidden="true"><use href={iconHref('warning')} /></svg>
          {p.fehler}
        </p>
      )}
      {p.children({ id: p.id, 'aria-invalid': p.fehler ? true : undefined, 'aria-describedby': p.fehler ? errId : undefined, required: p.required })}
    </div>
  );
}
