import type { MouseEvent } from 'react';
import { Ampel } from './Ampel';
import { datum, fill, menge, prozent, type TankstelleDaten } from './model';
import type { Format } from './Tankstelle';

/** The tanks of a location: stock, bio content, its cover by certificates and the traffic light. */
export function TankView({ daten, f, zuLieferkette }: { daten: TankstelleDaten; f: Format; zuLieferkette: (produktNr: string) => (e: MouseEvent) => void }) {
  const { texte, lang } = f;
  if (!daten.tanks.length) return <p className="empty">{texte.keineTanks}</p>;
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={texte.tanksCaption}>
      <table className="table tankstelle-tanks">
        <caption className="visually-hidden">{texte.tanksCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{texte.produkt}</th>
            <th scope="col" className="num">{texte.volumen}</th>
            <th scope="col" className="num">{texte.fuellstand}</th>
            <th scope="col" className="num">{texte.bioMenge}</th>
            <th scope="col" className="num">{texte.gedeckt}</th>
            <th scope="col" className="num">{texte.reichweite}</th>
            <th scope="col">{texte.ampel}</th>
            <th scope="col">{texte.lieferkette}</th>
          </tr>
        </thead>
        <tbody>
          {daten.tanks.map((t) => (
            <tr key={t.produktNr}>
              <th scope="row">{t.produktName} ({t.produktNr})</th>
              <td className="num">{menge(t.volumen, lang)}{t.bestandDatum && <><br /><span className="muted">{fill(texte.bestandVom, { datum: datum(t.bestandDatum, f.datumsformat) })}</span></>}</td>
              <td className="num">{prozent(t.fuellstand, lang)}</td>
              <td className="num">{menge(t.bioMenge, lang)}</td>
              <td className="num">{menge(t.gedeckt, lang)}{t.gedecktProzent != null && <><br /><span className="muted">{prozent(t.gedecktProzent, lang, 1)}</span></>}</td>
              <td className="num">{t.reichweiteTage == null ? '–' : fill(texte.tage, { tage: t.reichweiteTage })}</td>
              <td><Ampel tank={t} /></td>
              <td><a href={f.href({ standortNr: daten.standortNr, ansicht: 'lieferkette', produktNr: t.produktNr })} onClick={zuLieferkette(t.produktNr)}>{fill(texte.lieferketteVon, { produkt: t.produktName })}</a></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
