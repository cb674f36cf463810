// The location's 10 latest deliveries, inbound and outbound, under every view (views/tankstelle/letzte.ejs).
import { datum, menge, type Lieferung } from './model';
import { STATUS_VARIANTE } from './PumpView';
import type { Format } from './Tankstelle';
import { Badge } from './ui';

const VERKNUEPFUNG_VARIANTE = { nicht_verknuepft: 'neutral', vorlaeufig: 'warning', endgueltig: 'success' } as const;

export function LatestDeliveries({ lieferungen, f }: { lieferungen: Lieferung[]; f: Format }) {
  const { lang, texte } = f;
  const tx = texte.letzte;
  return (
    <section className="tankstelle-letzte" aria-labelledby="tankstelle-letzte-heading">
      <h2 id="tankstelle-letzte-heading">{tx.heading}</h2>
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="tankstelle-letzte-heading">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{tx.nr}</th>
              <th scope="col">{tx.art}</th>
              <th scope="col">{tx.datum}</th>
              <th scope="col">{tx.partner}</th>
              <th scope="col">{tx.produkt}</th>
              <th scope="col" className="num">{tx.menge}</th>
              <th scope="col">{tx.status}</th>
            </tr>
          </thead>
          <tbody>
            {!lieferungen.length && <tr><td colSpan={7} className="empty">{texte.leer.letzte}</td></tr>}
            {lieferungen.map((l) => (
              <tr key={`${l.art}-${l.nr}`}>
                <th scope="row"><a href={l.href}>{l.nr}</a></th>
                <td><Badge label={tx[l.art]} variante={l.art === 'ein' ? 'neutral' : 'info'} /></td>
                <td className="nowrap">{datum(l.datum, f.datumsformat)}</td>
                <td>{l.partnerName || l.partnerNr}</td>
                <td>{l.produktName || l.produktNr}</td>
                <td className="num">{menge(l.menge, lang, l.einheit)}</td>
                <td>
                  {texte.lieferstatus[l.status]}
                  {l.zertifikatStatus && <><br /><Badge label={texte.zertifikatStatus[l.zertifikatStatus]} variante={STATUS_VARIANTE[l.zertifikatStatus]} /></>}
                  {l.verknuepfungStatus && <><br /><Badge label={texte.verknuepfung[l.verknuepfungStatus]} variante={VERKNUEPFUNG_VARIANTE[l.verknuepfungStatus]} /></>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
