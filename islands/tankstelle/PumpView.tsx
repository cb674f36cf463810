import { datum, fill, menge, type ZapfsaeulenDaten } from './model';
import type { Format } from './Tankstelle';

/** What the pumps gave in the last 30 days, per product, with the certificate status of each outbound delivery. */
export function PumpView({ daten, f }: { daten: ZapfsaeulenDaten; f: Format }) {
  const { texte, lang } = f;
  const zeitraum = fill(texte.zeitraum, { von: datum(daten.von, f.datumsformat), bis: datum(daten.bis, f.datumsformat) });
  if (!daten.produkte.length) return <p className="empty">{texte.keineAbgaben} {zeitraum}</p>;
  return (
    <>
      <p>{zeitraum}</p>
      {daten.produkte.map((p) => (
        <section key={p.produktNr} aria-labelledby={`ts-pumpe-${p.produktNr}`}>
          <h2 id={`ts-pumpe-${p.produktNr}`}>{p.produktName} ({p.produktNr})</h2>
          <dl className="stat-grid">
            <div className="stat"><dt className="stat-label">{texte.abgegeben}</dt><dd className="stat-value">{menge(p.menge, lang)}</dd></div>
            <div className="stat"><dt className="stat-label">{texte.bioMenge}</dt><dd className="stat-value">{menge(p.bioMenge, lang)}</dd></div>
          </dl>
          <div className="table-wrap" tabIndex={0} role="region" aria-label={fill(texte.ablieferungenVon, { produkt: p.produktName })}>
            <table className="table">
              <caption className="visually-hidden">{fill(texte.ablieferungenVon, { produkt: p.produktName })}</caption>
              <thead>
                <tr>
                  <th scope="col">{texte.nr}</th>
                  <th scope="col">{texte.datum}</th>
                  <th scope="col">{texte.partner}</th>
                  <th scope="col" className="num">{texte.menge}</th>
                  <th scope="col" className="num">{texte.bioMenge}</th>
                  <th scope="col">{texte.zertifikate}</th>
                </tr>
              </thead>
              <tbody>
                {p.ablieferungen.map((a) => (
                  <tr key={a.nr}>
                    <th scope="row"><a href={a.href}>{a.nr}</a></th>
                    <td>{datum(a.datum, f.datumsformat)}</td>
                    <td>{a.partnerName ?? '–'}</td>
                    <td className="num">{menge(a.menge, lang, a.einheit)}</td>
                    <td className="num">{menge(a.bioMenge, lang)}</td>
                    <td>{texte[`zertifikat_${a.zertifikatStatus}`]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}
