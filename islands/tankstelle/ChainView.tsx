import { datum, fill, menge, type LieferketteDaten, type Tank, type Zustand } from './model';
import type { Format } from './Tankstelle';

/** Where a tank's bio content comes from: the inbound deliveries that make it up, their certificates, the rest. */
export function ChainView({ daten, tanks, zustand, f, waehle }: { daten: LieferketteDaten | null; tanks: Tank[]; zustand: Zustand; f: Format; waehle: (produktNr: string) => void }) {
  const { texte, lang } = f;
  if (!daten) return <p className="empty">{texte.keineTanks}</p>;
  return (
    <>
      <form method="get" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="ts-produkt">{texte.tank}</label>
        <select id="ts-produkt" name="produkt" value={zustand.produktNr ?? ''} onChange={(e) => waehle(e.target.value)}>
          {tanks.map((t) => <option key={t.produktNr} value={t.produktNr}>{t.produktName} ({t.produktNr})</option>)}
        </select>
      </form>
      <p>{fill(texte.bioInhalt, { menge: menge(daten.bioMenge, lang) })}</p>
      <ol className="tankstelle-kette">
        {daten.anteile.map((a) => (
          <li key={a.einlieferungNr}>
            <a href={a.href}>{a.einlieferungNr}</a> · {datum(a.datum, f.datumsformat)} · {a.partnerName ?? '–'} · {menge(a.anteil, lang)}
            {a.nachweise.length > 0 && (
              <ul>
                {a.nachweise.map((n) => <li key={n.nr}><a href={n.href}>{n.nr}</a> {menge(n.rest, lang, n.einheit)}</li>)}
              </ul>
            )}
            <a href={a.verfolgungHref}>{texte.verfolgen}</a>
          </li>
        ))}
      </ol>
      <p>{texte.ohneHerkunft}: {menge(daten.ohneHerkunft, lang)} · {texte.summe}: {menge(daten.summe, lang)}</p>
    </>
  );
}
