// The filling-station island: the server's Tankstelle page (views/tankstelle), kept in place. It switches the
// view (tanks, pumps, supply chain) and the location without loading a page, writes the state into the address
// (history.replaceState, the server page's own parameters, so the address can be shared and reloads the same
// view), and loads the view again a minute after each load while the page is visible (paused while it is
// hidden, at once on return when a refresh fell due). While a switch loads, the old content stays with
// aria-busy and a polite status says what is loading and then what was loaded; a failed load shows the spec's
// error with a button that tries again. Until its first answer the server's HTML stays as it came. The markup
// and classes are the server views', so the page looks the same with and without JavaScript.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { InselProps, InselTexte, Varianten } from '../../src/features/tankstelle/insel';
import { ApiError, api as apiCall } from '../lib/api';
import { ChainView } from './ChainView';
import { LatestDeliveries } from './LatestDeliveries';
import {
  ANSICHTEN, ansichtUrlVorab, basisUrl, fill, gleich, lieferketteProdukt, lieferketteUrl, mitAnsicht, mitStandort, planen, seitenUrl, uhrzeit,
  zapfsaeulenUrl, type Ansicht, type LieferketteDaten, type TankstelleDaten, type ZapfsaeulenDaten, type Zustand,
} from './model';
import { PumpView } from './PumpView';
import { TankView } from './TankView';
import { iconHref } from '../lib/icons';

export type TankstelleProps = InselProps & {
  /** The server's HTML of the element, shown until the first load answers. */
  vorab?: string;
};

/** What is on screen: the state it answers (location and product as the server resolved them) and its data. */
interface Geladen {
  zustand: Zustand;
  basis: TankstelleDaten;
  zapfsaeulen: ZapfsaeulenDaten | null;
  lieferkette: LieferketteDaten | null;
  /** When it was loaded (ms since the epoch). */
  um: number;
}

/** What the views need besides their data. */
export interface Format {
  lang: string;
  datumsformat: string;
  texte: InselTexte;
  varianten: Varianten;
  /** The page's path (the forms' action). */
  aktion: string;
  /** The page's URL of a state (links that also work opened in a new tab). */
  href: (z: Zustand) => string;
}

/** start: the first load; wechsel: the user switched; aktualisierung: the minute refresh; wiederholen: "Try again". */
type Art = 'start' | 'wechsel' | 'aktualisierung' | 'wiederholen';

/** Loads everything a state shows; the location and the supply chain's product as the server resolves them. */
// The minute refresh is not the user's doing: its calls say so (X-Activity: idle), so they do not keep the session
// alive on the server (src/http/session.ts), and a station screen left alone still signs out after 30 minutes.
async function ladeZustand(z: Zustand, passiv: boolean): Promise<Omit<Geladen, 'um'>> {
  const init: RequestInit = passiv ? { headers: { 'X-Activity': 'idle' } } : {};
  const api = <T,>(url: string) => apiCall<T>(url, init);
  const vorab = ansichtUrlVorab(z);
  // The view's own call starts with the base call when it needs nothing from it; its failure waits for the base's.
  const [basis, frueh] = await Promise.all([
    api<TankstelleDaten>(basisUrl(z.standortNr)),
    vorab ? api<unknown>(vorab).then((data) => ({ ok: true as const, data }), (err: unknown) => ({ ok: false as const, err })) : null,
  ]);
  const standortNr = basis.standortNr;
  const zustand: Zustand = { standortNr, ansicht: z.ansicht, produktNr: z.ansicht === 'lieferkette' ? lieferketteProdukt(z.produktNr, basis.tanks) : null };
  const hole = async <T,>(url: string): Promise<T> => {
    if (frueh && url === vorab) {
      if (!frueh.ok) throw frueh.err;
      return frueh.data as T;
    }
    return api<T>(url);
  };
  const zapfsaeulen = zustand.ansicht === 'zapfsaeulen' ? await hole<ZapfsaeulenDaten>(zapfsaeulenUrl(standortNr)) : null;
  const lieferkette = zustand.ansicht === 'lieferkette' && zustand.produktNr ? await hole<LieferketteDaten>(lieferketteUrl(standortNr, zustand.produktNr)) : null;
  return { zustand, basis, zapfsaeulen, lieferkette };
}

const ohneModifikator = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

export function Tankstelle(props: TankstelleProps) {
  const { lang, labels: texte, varianten, datumsformat, zeitzone } = props;
  const [gewuenscht, setGewuenscht] = useState<Zustand>(() => ({
    standortNr: props.standortNr, ansicht: props.ansicht, produktNr: props.ansicht === 'lieferkette' ? props.produktNr : null,
  }));
  const [geladen, setGeladen] = useState<Geladen | null>(null);
  const [laedt, setLaedt] = useState<Art | null>(null);
  const [fehler, setFehler] = useState(false);
  const [meldung, setMeldung] = useState('');
  /** The state the refresh loads: the last one asked for. */
  const ziel = useRef(gewuenscht);
  /** Counts the loads: only the answer of the latest one is shown (a quick second switch wins over the first). */
  const anfrage = useRef(0);
  const laeuft = useRef(false);
  const letzteLadung = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const fokusAufInhalt = useRef(false);
  const panel = useRef<HTMLElement>(null);

  const ansichtName = (a: Ansicht) => texte.ansichten[a];

  async function laden(z: Zustand, art: Art) {
    const id = ++anfrage.current;
    clearTimeout(timer.current);
    laeuft.current = true;
    setLaedt(art);
    // The page's own loads (first, refresh) stay quiet; a load the user asked for says what loads, then what came.
    const ansagen = art === 'wechsel' || art === 'wiederholen';
    if (ansagen) setMeldung(texte.laden.laedt);
    try {
      const neu = await ladeZustand(z, art === 'aktualisierung');
      if (id !== anfrage.current) return;
      setGeladen({ ...neu, um: Date.now() });
      setFehler(false);
      ziel.current = neu.zustand;
      setGewuenscht(neu.zustand);
      window.history.replaceState(window.history.state, '', seitenUrl(window.location.href, neu.zustand));
      if (ansagen) {
        const standort = neu.basis.standorte.find((s) => s.nr === neu.zustand.standortNr)?.name ?? neu.zustand.standortNr ?? '';
        setMeldung(fill(texte.laden.geladen, { ansicht: ansichtName(neu.zustand.ansicht), standort }));
      }
    } catch (err) {
      if (id !== anfrage.current) return;
      // A 401 is on its way to the login page (lib/api.ts): nothing to show.
      if (err instanceof ApiError && err.status === 401) return;
      setFehler(true);
      if (ansagen) setMeldung('');
    } finally {
      if (id === anfrage.current) {
        laeuft.current = false;
        setLaedt(null);
        // The next refresh a minute after every load, failed ones included (so a server back up is noticed).
        letzteLadung.current = Date.now();
        planeNaechste();
      }
    }
  }

  function planeNaechste() {
    clearTimeout(timer.current);
    if (laeuft.current) return;
    const p = planen(document.visibilityState !== 'hidden', letzteLadung.current, Date.now());
    if (p.art === 'jetzt') void laden(ziel.current, 'aktualisierung');
    else if (p.art === 'warten') timer.current = setTimeout(() => void laden(ziel.current, 'aktualisierung'), p.ms);
  }

  // The handlers read the refs, never state captured at the first render, so the one listener set up here stays right.
  useEffect(() => {
    void laden(ziel.current, 'start');
    const sichtbarkeit = () => planeNaechste();
    document.addEventListener('visibilitychange', sichtbarkeit);
    return () => {
      document.removeEventListener('visibilitychange', sichtbarkeit);
      clearTimeout(timer.current);
      anfrage.current++;
    };
  }, []);

  // After "Try again" worked, the focus (on the button that went away with the error) moves to the content.
  useEffect(() => {
    if (!fokusAufInhalt.current || laedt) return;
    fokusAufInhalt.current = false;
    if (!fehler) panel.current?.focus();
  });

  function wechseln(z: Zustand) {
    if (gleich(z, ziel.current) && !fehler) return;
    ziel.current = z;
    setGewuenscht(z);
    window.history.replaceState(window.history.state, '', seitenUrl(window.location.href, z));
    void laden(z, 'wechsel');
  }

  function wiederholen() {
    if (laeuft.current) return;
    fokusAufInhalt.current = document.activeElement?.id === 'tankstelle-erneut';
    void laden(ziel.current, 'wiederholen');
  }

  /** A link to another view: followed in place, unless the user opens it elsewhere (new tab, window). */
  const zuAnsicht = (a: Ansicht, produktNr?: string) => (e: MouseEvent) => {
    if (!ohneModifikator(e)) return;
    e.preventDefault();
    wechseln(produktNr === undefined ? mitAnsicht(ziel.current, a) : mitAnsicht(ziel.current, a, produktNr));
  };

  const aktion = window.location.pathname;
  const f: Format = { lang, datumsformat, texte, varianten, aktion, href: (z) => seitenUrl(window.location.pathname, z) };

  const fehlerAnzeige = fehler && (
    <div className="alert alert-error" role="alert">
      <svg className="icon" aria-hidden="true"><use href={iconHref('warning')} /></svg>
      <div>
        <p>{texte.laden.fehler}</p>
        <p><button type="button" id="tankstelle-erneut" className="btn btn-secondary" onClick={wiederholen}>{texte.laden.erneut}</button></p>
      </div>
    </div>
  );
  // The live region is the first child in both renderings below, so React keeps the one element from the first
  // render on: a region that appears together with its text is not reliably announced.
  const status = <p className="visually-hidden" role="status">{meldung}</p>;

  // Before the first answer: the server's page as it came, busy; a failed first load says so above it.
  if (!geladen) {
    return (
      <>
        {status}
        {fehlerAnzeige}
        <div className="tankstelle-vorab" aria-busy={laedt ? 'true' : undefined} dangerouslySetInnerHTML={{ __html: props.vorab ?? '' }} />
      </>
    );
  }

  const zeigt = geladen.zustand;
  // A failed switch shows the error instead of the view it left; a failed refresh keeps the view below it.
  const inhalt = !(fehler && !gleich(zeigt, gewuenscht));
  const sichtbarBeschaeftigt = laedt === 'wechsel' || laedt === 'wiederholen';
  // The tab links as the server writes them (#tankstelle-tabs keeps the tabs in view when a link is opened).
  const tabHref = (a: Ansicht) => `${seitenUrl(window.location.pathname, mitAnsicht(gewuenscht, a))}#tankstelle-tabs`;

  return (
    <>
      {status}
      <form method="get" action={aktion} className="tankstelle-wahl" onSubmit={(e) => e.preventDefault()}>
        <input type="hidden" name="ansicht" value={gewuenscht.ansicht} />
        <div className="field">
          <label htmlFor="tankstelle-standort">{texte.standort}</label>
          <select id="tankstelle-standort" name="standort" value={gewuenscht.standortNr ?? ''} onChange={(e) => wechseln(mitStandort(ziel.current, e.target.value))}>
            {geladen.basis.standorte.map((s) => <option key={s.nr} value={s.nr}>{`${s.nr} · ${s.name}`}</option>)}
          </select>
        </div>
        <p className="tankstelle-stand">
          {fill(texte.laden.aktualisiert, { zeit: uhrzeit(geladen.um, zeitzone) })}
          {sichtbarBeschaeftigt && <span className="tankstelle-laedt"> · {texte.laden.laedt}</span>}
        </p>
      </form>
      <nav className="tabs" id="tankstelle-tabs" aria-label={texte.ansichtenNav}>
        <ul>
          {ANSICHTEN.map((a, i) => (
            <li key={a}>
              <a id={`tankstelle-tabs-${i + 1}`} href={tabHref(a)} aria-current={gewuenscht.ansicht === a ? 'page' : undefined} onClick={zuAnsicht(a)}>{ansichtName(a)}</a>
            </li>
          ))}
        </ul>
      </nav>
      <section ref={panel} tabIndex={-1} className="tankstelle-panel" aria-labelledby={`tankstelle-tabs-${ANSICHTEN.indexOf(zeigt.ansicht) + 1}`} aria-busy={laedt ? 'true' : undefined}>
        {fehlerAnzeige}
        {inhalt && zeigt.ansicht === 'tanks' && <TankView daten={geladen.basis} f={f} zuLieferkette={(p) => zuAnsicht('lieferkette', p)} />}
        {inhalt && zeigt.ansicht === 'zapfsaeulen' && geladen.zapfsaeulen && <PumpView daten={geladen.zapfsaeulen} f={f} />}
        {inhalt && zeigt.ansicht === 'lieferkette' && (
          <ChainView
            daten={geladen.lieferkette}
            tanks={geladen.basis.tanks}
            standortNr={zeigt.standortNr ?? ''}
            gewaehlt={gewuenscht.ansicht === 'lieferkette' ? gewuenscht.produktNr : null}
            f={f}
            waehle={(p) => wechseln(mitAnsicht(ziel.current, 'lieferkette', p))}
          />
        )}
      </section>
      {inhalt && <LatestDeliveries lieferungen={geladen.basis.letzteLieferungen} f={f} />}
    </>
  );
}
