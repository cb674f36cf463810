// The supply-chain view (views/tankstelle/lieferkette.ejs): the tank in a select that loads on change, then the
// inbound deliveries its bio content is made of (newest first) with their certificates, the part without origin
// and the sum, which is the tank's bio content.
import { datum, fill, menge, type LieferketteDaten, type Tank } from './model';
import type { Format } from './Tankstelle';
import { Badge, Hinweis, Stat, Tabelle } from './ui';

interface Props {
  daten: LieferketteDaten | null;
  tanks: Tank[];
  standortNr: string;
  /** The product asked for (shown in the select while it loads); null: the one shown. */
  gewaehlt: string | null;
  f: Format;
  waehle: (produktNr: string) => void;
}

export function ChainView({ daten, tanks, standortNr, gewaehlt, f, waehle }: Props) {
  const { lang, texte } = f;
  const tx = texte.kette;
  if (!tanks.length || !daten) return <Hinweis text={tx.keineTanks} />;
  const tabelle = fill(tx.tabelle, { produkt: daten.produktName });
  return (
    <>
      <form method="get" action={f.aktion} className="tankstelle-wahl" onSubmit={(e) => e.preventDefault()}>
        <input type="hidden" name="standort" value={standortNr} />
        <input type="hidden" name="ansicht" value="lieferkette" />
        <div className="field">
          <label htmlFor="tankstelle-produkt">{tx.tank}</label>
          <select id="tankstelle-produkt" name="produkt" value={gewaehlt ?? daten.produktNr} onChange={(e) => waehle(e.target.value)}>
            {tanks.map((x) => <option key={x.produktNr} value={x.produktNr}>{`${x.produktNr} · ${x.produktName}`}</option>)}
          </select>
        </div>
      </form>
      <h2>{fill(tx.heading, { produkt: daten.produktName })}</h2>
      <p className="muted">{tx.intro}</p>
      {daten.bioMenge == null ? (
        <Hinweis text={tx.keinBestand} />
      ) : (
        <>
          <dl className="stat-grid">
            <Stat label={tx.bioInhalt} value={menge(daten.bioMenge, lang)} />
          </dl>
          <Tabelle label={tabelle} className="kette-tabelle">
            <thead>
              <tr>
                <th scope="col">{tx.einlieferung}</th>
                <th scope="col">{tx.datum}</th>
                <th scope="col">{tx.partner}</th>
                <th scope="col" className="num">{tx.bioMenge}</th>
                <th scope="col" className="num">{tx.anteil}</th>
                <th scope="col">{tx.abholung}</th>
                <th scope="col">{tx.nachweise}</th>
              </tr>
            </thead>
            <tbody>
              {daten.anteile.map((a) => (
                <tr key={a.einlieferungNr}>
                  <th scope="row">
                    <a href={a.href}>{a.einlieferungNr}</a>
                    <span className="kette-verfolgen"><a href={a.verfolgungHref} aria-label={fill(tx.verfolgenLabel, { nr: a.einlieferungNr })}>{tx.verfolgen}</a></span>
                  </th>
                  <td className="nowrap">{datum(a.datum, f.datumsformat)}</td>
                  <td>{a.partnerName || '–'}</td>
                  <td className="num">{menge(a.bioMenge, lang)}</td>
                  <td className="num">{menge(a.anteil, lang)}</td>
                  <td>{a.abholungNr ? <a href={`/${lang}/bewegungsdaten/abholungen/${encodeURIComponent(a.abholungNr)}`}>{a.abholungNr}</a> : '–'}</td>
                  <td>
                    {!a.nachweise.length ? tx.keineNachweise : (
                      <ul className="plain-list">
                        {a.nachweise.map((n) => (
                          <li key={n.nr}>
                            <a href={n.href}>{n.nr}</a> <span className="nowrap">({menge(n.rest, lang, n.einheit)})</span>
                            {n.vorlaeufig && <> <Badge label={tx.vorlaeufig} variante="info" icon="clock" /></>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
              <tr className="kette-ohne-herkunft">
                <th scope="row">{tx.ohneHerkunft}</th>
                <td colSpan={3} className="muted">{tx.ohneHerkunftHinweis}</td>
                <td className="num">{menge(daten.ohneHerkunft, lang)}</td>
                <td colSpan={2} />
              </tr>
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={4}>{tx.summe}</th>
                <td className="num"><strong>{menge(daten.summe, lang)}</strong></td>
                <td colSpan={2} />
              </tr>
            </tfoot>
          </Tabelle>
        </>
      )}
    </>
  );
}
