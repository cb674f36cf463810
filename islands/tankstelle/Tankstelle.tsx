// The filling-station island: the server's Tankstelle page (views/tankstelle), kept in place. It switches the
// view (tanks, pumps, supply chain) and the location without loading a page, writes the state into the address
// (history.replaceState, the server page's own parameters, so the address can be shared and reloads the same
// view), and loads the view again every minute while the page is visible. While a switch loads, the old content
// stays with aria-busy and a polite status says what is loading and then what was loaded; a failed load shows
// the spec's error with a button that tries again. Until its first load the server's HTML stays as it is.
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { ApiError, api } from '../lib/api';
import {
  ANSICHTEN, ansichtUrlVorab, basisUrl, fill, gleich, lieferketteProdukt, lieferketteUrl, mitAnsicht, mitStandort, planen, seitenUrl, zapfsaeulenUrl,
  uhrzeit, type Ansicht, type LieferketteDaten, type TankstelleDaten, type ZapfsaeulenDaten, type Zustand,
} from './model';
import { ChainView } from './ChainView';
import { LatestDeliveries } from './LatestDeliveries';
import { PumpView } from './PumpView';
import { TankView } from './TankView';
import type { Texte } from './texte';

export interface TankstelleProps {
  lang: string;
  standortNr: string | null;
  ansicht: Ansicht;
  produktNr: string | null;
  datumsformat?: string;
  zeitzone?: string;
  labels: Texte;
  /** The server's HTML of the element, shown until the first load answers. */
  vorab?: string;
}

/** What is on screen: the state it answers (location and product as the server resolved them) and its data. */
export interface Geladen {
  zustand: Zustand;
  basis: TankstelleDaten;
  zapfsaeulen: ZapfsaeulenDaten | null;
  lieferkette: LieferketteDaten | null;
  um: number;
}

export interface Format {
  lang: string;
  datumsformat: string;
  texte: Texte;
  /** The page's URL of a state (links that also work opened in a new tab). */
  href: (z: Zustand) => string;
}

type Art = 'start' | 'wechsel' | 'aktualisierung' | 'wiederholen';

/** Loads everything a state shows; the location and the supply chain's product as the server resolves them. */
async function ladeZustand(z: Zustand): Promise<Omit<Geladen, 'um'>> {
  const vorab = ansichtUrlVorab(z);
  // The view's own call starts with the base call when it needs nothing from it; its failure waits for the base's.
  const [basis, frueh] = await Promise.all([
    api<TankstelleDaten>(basisUrl(z.standortNr)),
    vorab ? api<unknown>(vorab).then((data) => ({ data }), (err: unknown) => ({ err })) : null,
  ]);
  const standortNr = basis.standortNr;
  const zustand: Zustand = { standortNr, ansicht: z.ansicht, produktNr: z.ansicht === 'lieferkette' ? lieferketteProdukt(z.produktNr, basis.tanks) : z.produktNr };
  const gleicheUrl = (url: string) => vorab === url && frueh !== null;
  const hole = async <T,>(url: string): Promise<T> => {
    if (gleicheUrl(url)) {
      if ('err' in frueh!) throw frueh.err;
      return frueh!.data as T;
    }
    return api<T>(url);
  };
  let zapfsaeulen: ZapfsaeulenDaten | null = null;
  let lieferkette: LieferketteDaten | null = null;
  if (zustand.ansicht === 'zapfsaeulen') zapfsaeulen = await hole<ZapfsaeulenDaten>(zapfsaeulenUrl(standortNr));
  if (zustand.ansicht === 'lieferkette' && zustand.produktNr) lieferkette = await hole<LieferketteDaten>(lieferketteUrl(standortNr, zustand.produktNr));
  return { zustand, basis, zapfsaeulen, lieferkette };
}

const ohneModifikator = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

export function Tankstelle(props: TankstelleProps) {
  const { lang, labels: texte } = props;
  const datumsformat = props.datumsformat ?? 'dd.MM.yyyy';
  const zeitzone = props.zeitzone ?? 'Europe/Berlin';
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
  const fokusAufInhalt = useRef(false);
  const panel = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const ansichtName = (a: Ansicht) => texte[`ansicht_${a}`];

  const laden = useCallback(async (z: Zustand, art: Art) => {
    const id = ++anfrage.current;
    clearTimeout(timer.current);
    laeuft.current = true;
    setLaedt(art);
    // The page's own loads (first, refresh) stay quiet; a load the user asked for says what loads, then what came.
    const ansagen = art === 'wechsel' || art === 'wiederholen';
    if (ansagen) setMeldung(texte.laedt);
    try {
      const neu = await ladeZustand(z);
      if (id !== anfrage.current) return;
      const um = Date.now();
      setGeladen({ ...neu, um });
      setFehler(false);
      ziel.current = neu.zustand;
      setGewuenscht(neu.zustand);
      window.history.replaceState(window.history.state, '', seitenUrl(window.location.href, neu.zustand));
      if (ansagen) {
        const standort = neu.basis.standorte.find((s) => s.nr === neu.zustand.standortNr)?.name ?? neu.zustand.standortNr ?? '';
        setMeldung(fill(texte.geladen, { ansicht: ansichtName(neu.zustand.ansicht), standort }));
      }
    } catch (err) {
      if (id !== anfrage.current) return;
      // A 401 is on its way to the login page (lib/api.ts); nothing to show.
      if (err instanceof ApiError && err.status === 401) return;
      setFehler(true);
      if (ansagen) setMeldung('');
    } finally {
      if (id === anfrage.current) {
        laeuft.current = false;
        setLaedt(null);
        // Refreshes continue a minute after every load, failed ones included (so a server back up is noticed).
        letzteLadung.current = Date.now();
        planeNaechste();
      }
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function planeNaechste() {
    clearTimeout(timer.current);
    if (laeuft.current) return;
    const p = planen(document.visibilityState !== 'hidden', letzteLadung.current, Date.now());
    if (p.art === 'jetzt') void laden(ziel.current, 'aktualisierung');
    else if (p.art === 'warten') timer.current = setTimeout(() => void laden(ziel.current, 'aktualisierung'), p.ms);
  }

  useEffect(() => {
    void laden(ziel.current, 'start');
    const sichtbarkeit = () => planeNaechste();
    document.addEventListener('visibilitychange', sichtbarkeit);
    return () => {
      document.removeEventListener('visibilitychange', sichtbarkeit);
      clearTimeout(timer.current);
      anfrage.current++;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function wechseln(z: Zustand) {
    if (gleich(z, ziel.current) && !fehler) return;
    ziel.current = z;
    setGewuenscht(z);
    window.history.replaceState(window.history.state, '', seitenUrl(window.location.href, z));
    void laden(z, 'wechsel');
  }

  const href = (z: Zustand) => seitenUrl(window.location.href, z);
  const f: Format = { lang, datumsformat, texte, href };

  /** A link to another view: followed in place, unless the user opens it elsewhere (new tab, window). */
  const zuAnsicht = (a: Ansicht, produktNr?: string) => (e: MouseEvent) => {
    if (!ohneModifikator(e)) return;
    e.preventDefault();
    wechseln(mitAnsicht(ziel.current, a, produktNr ?? ziel.current.produktNr));
  };

  /** Tries the failed load again; the focus, on the button that goes away with the error, moves to the content. */
  function wiederholen() {
    if (laeuft.current) return;
    fokusAufInhalt.current = document.activeElement?.id === 'ts-erneut';
    void laden(ziel.current, 'wiederholen');
  }
  useEffect(() => {
    if (!fokusAufInhalt.current || laedt) return;
    fokusAufInhalt.current = false;
    // Failed again: the button stays, and the focus with it.
    if (!fehler) panel.current?.focus();
  });

  const fehlerAnzeige = fehler && (
    <div className="alert alert-error" role="alert">
      <svg className="icon" aria-hidden="true"><use href="#i-warning" /></svg>
      <div>
        <p>{texte.fehler}</p>
        <p>
          <button type="button" id="ts-erneut" className="btn btn-secondary btn-sm" onClick={wiederholen}>
            {texte.erneutVersuchen}
          </button>
        </p>
      </div>
    </div>
  );
  const status = <p className="visually-hidden" role="status">{meldung}</p>;

  // Before the first answer: the server's page as it came, busy; a failed first load says so above it.
  if (!geladen) {
    return (
      <>
        {fehlerAnzeige}
        <div className="tankstelle-vorab" aria-busy={laedt ? 'true' : undefined} dangerouslySetInnerHTML={{ __html: props.vorab ?? '' }} />
        {status}
      </>
    );
  }

  const zeigt = geladen.zustand;
  // A failed switch shows the error instead of the view it left; a failed refresh keeps the view under it.
  const inhalt = !(fehler && !gleich(zeigt, gewuenscht));
  const sichtbarBeschaeftigt = laedt === 'wechsel' || laedt === 'wiederholen';

  return (
    <>
      <div className="tankstelle-kopf">
        <form className="tankstelle-standort" method="get" onSubmit={(e) => e.preventDefault()}>
          <label htmlFor="ts-standort">{texte.standort}</label>
          <select id="ts-standort" name="standort" value={gewuenscht.standortNr ?? ''} onChange={(e) => wechseln(mitStandort(ziel.current, e.target.value))}>
            {geladen.basis.standorte.map((s) => (
              <option key={s.nr} value={s.nr}>{s.name} ({s.nr})</option>
            ))}
          </select>
        </form>
        <nav className="tabs" id="ts-ansichten" aria-label={texte.ansichten}>
          <ul>
            {ANSICHTEN.map((a, i) => (
              <li key={a}>
                <a id={`ts-ansichten-${i + 1}`} href={href(mitAnsicht(gewuenscht, a))} aria-current={gewuenscht.ansicht === a ? 'page' : undefined} onClick={zuAnsicht(a)}>
                  {ansichtName(a)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div ref={panel} tabIndex={-1} className="tab-panel tankstelle-panel" aria-labelledby={`ts-ansichten-${ANSICHTEN.indexOf(zeigt.ansicht) + 1}`} aria-busy={laedt ? 'true' : undefined}>
        {fehlerAnzeige}
        {inhalt && zeigt.ansicht === 'tanks' && <TankView daten={geladen.basis} f={f} zuLieferkette={(p) => zuAnsicht('lieferkette', p)} />}
        {inhalt && zeigt.ansicht === 'zapfsaeulen' && geladen.zapfsaeulen && <PumpView daten={geladen.zapfsaeulen} f={f} />}
        {inhalt && zeigt.ansicht === 'lieferkette' && (
          <ChainView daten={geladen.lieferkette} tanks={geladen.basis.tanks} zustand={zeigt} f={f} waehle={(p) => wechseln(mitAnsicht(ziel.current, 'lieferkette', p))} />
        )}
      </div>
      {inhalt && <LatestDeliveries lieferungen={geladen.basis.letzteLieferungen} f={f} />}
      <p className="tankstelle-stand">
        {fill(texte.aktualisiert, { zeit: uhrzeit(geladen.um, zeitzone) })}
        {sichtbarBeschaeftigt && <span className="tankstelle-laedt"> {texte.laedt}</span>}
      </p>
      {status}
    </>
  );
}
