// The tank view (views/tankstelle/tanks.ejs): one card per tank with its gauge, figures, traffic light (icon,
// text and colour) and the link to its supply chain; then the legend with the tenant's thresholds.
import type { MouseEvent } from 'react';
import { datum, fill, menge, prozent, stufe, plural, wert, type TankstelleDaten } from './model';
import type { Format } from './Tankstelle';
import { Badge, Hinweis } from './ui';

export function TankView({ daten, f, zuLieferkette }: { daten: TankstelleDaten; f: Format; zuLieferkette: (produktNr: string) => (e: MouseEvent) => void }) {
  const { lang, texte, varianten } = f;
  const tx = texte.tank;
  const standort = daten.standorte.find((s) => s.nr === daten.standortNr);
  const liste = fill(tx.liste, { standort: standort ? standort.name : daten.standortNr });
  const { reichweiteTage, verbrauchTage } = daten.einstellungen;
  return (
    <>
      <h2 className="visually-hidden">{liste}</h2>
      {!daten.tanks.length ? (
        <Hinweis text={texte.leer.tanks} />
      ) : (
        <ul className="tank-grid" aria-label={liste}>
          {daten.tanks.map((tank) => {
            const s = stufe(tank.fuellstand);
            const gauge = tank.fuellstand == null ? fill(tx.gaugeUnbekannt, { produkt: tank.produktName }) : fill(tx.gauge, { produkt: tank.produktName, wert: wert(tank.fuellstand, lang) });
            return (
              <li key={tank.produktNr} className={`card tank-card tank-${tank.ampelFarbe}`}>
                <h3 className="tank-title">{tank.produktName} <span className="cell-sub">{tank.produktNr}</span></h3>
                <div className="tank-body">
                  <div className="tank-gauge" role="img" aria-label={gauge}>
                    <div className={`tank-gauge-fill${s == null ? ' tank-gauge-unbekannt' : ` tank-fill-${s}`}`} />
                  </div>
                  <div className="tank-level">
                    <p className="tank-level-value">{prozent(tank.fuellstand, lang)}</p>
                    <p>{tank.volumen == null ? tx.keinBestand : menge(tank.volumen, lang)}</p>
                    {tank.bestandDatum && <p className="muted">{fill(tx.bestandVom, { datum: datum(tank.bestandDatum, f.datumsformat) })}</p>}
                  </div>
                </div>
                <p className="tank-ampel"><span className="visually-hidden">{tx.ampel}: </span><Badge label={tank.ampelText} variante={varianten[tank.ampelFarbe]} icon={tank.ampelIcon} /></p>
                <dl className="tank-figures">
                  <div><dt>{tx.bioAnteil}</dt><dd>{prozent(tank.bioAnteil, lang)}</dd></div>
                  <div><dt>{tx.bioMenge}</dt><dd>{menge(tank.bioMenge, lang)}</dd></div>
                  <div><dt>{tx.gedeckt}</dt><dd>{menge(tank.gedeckt, lang)}{tank.gedecktProzent != null && ` (${prozent(tank.gedecktProzent, lang)})`}</dd></div>
                  <div><dt>{tx.verbrauch}</dt><dd>{menge(tank.verbrauchProTag, lang)}</dd></div>
                  <div><dt>{tx.reichweite}</dt><dd>{tank.reichweiteTage != null ? plural(tx.tage, tank.reichweiteTage, lang) : tank.aktiveEinlieferungNr ? tx.unbegrenzt : '–'}</dd></div>
                  <div>
                    <dt>{tx.aktiv}</dt>
                    <dd>{tank.aktiveEinlieferungNr ? <a href={`/${lang}/bewegungsdaten/einlieferungen/${encodeURIComponent(tank.aktiveEinlieferungNr)}`}>{tank.aktiveEinlieferungNr}</a> : '–'}</dd>
                  </div>
                  <div><dt>{tx.nachfolger}</dt><dd>{tank.nachfolger ? tx.ja : tx.nein}</dd></div>
                </dl>
                <p className="tank-link">
                  <a href={f.href({ standortNr: daten.standortNr, ansicht: 'lieferkette', produktNr: tank.produktNr })} onClick={zuLieferkette(tank.produktNr)}>
                    {fill(tx.ketteLink, { produkt: tank.produktName })}
                  </a>
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <section className="tank-legende" aria-labelledby="tank-legende-heading">
        <h2 id="tank-legende-heading">{texte.legende.heading}</h2>
        <p>{fill(texte.legende.regel, { reichweite: reichweiteTage, verbrauch: verbrauchTage })}</p>
        <dl className="tank-legende-liste">
          {texte.legende.ampeln.map((a) => (
            <div key={a.ampel}>
              <dt><Badge label={a.text} variante={a.variante} icon={a.icon} /></dt>
              <dd>{fill(a.beschreibung, { reichweite: reichweiteTage })}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}
