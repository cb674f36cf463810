import { datum, menge, type Lieferung } from './model';
import type { Format } from './Tankstelle';

/** The ten latest deliveries at the location, in and out, under every view. */
export function LatestDeliveries({ lieferungen, f }: { lieferungen: Lieferung[]; f: Format }) {
  const { texte, lang } = f;
  return (
    <section className="tankstelle-lieferungen" aria-labelledby="ts-lieferungen">
      <h2 id="ts-lieferungen">{texte.letzteLieferungen}</h2>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={texte.letzteLieferungen}>
        <table className="table">
          <caption className="visually-hidden">{texte.letzteLieferungen}</caption>
          <thead>
            <tr>
              <th scope="col">{texte.nr}</th>
              <th scope="col">{texte.art}</th>
              <th scope="col">{texte.datum}</th>
              <th scope="col">{texte.partner}</th>
              <th scope="col">{texte.produkt}</th>
              <th scope="col" className="num">{texte.menge}</th>
            </tr>
          </thead>
          <tbody>
            {!lieferungen.length && <tr><td colSpan={6} className="empty">{texte.keineLieferungen}</td></tr>}
            {lieferungen.map((l) => (
              <tr key={`${l.art}-${l.nr}`}>
                <th scope="row"><a href={l.href}>{l.nr}</a></th>
                <td>{texte[`art_${l.art}`]}</td>
                <td>{datum(l.datum, f.datumsformat)}</td>
                <td>{l.partnerName ?? '–'}</td>
                <td>{l.produktName}</td>
                <td className="num">{menge(l.menge, lang, l.einheit)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
