// The pump view (views/tankstelle/zapfsaeulen.ejs): per product the outbound deliveries of the last 30 days,
// their sums, how many have which certificate status, and the newest with status badges.
import { datum, fill, idTeil, menge, wert, type ZapfsaeulenDaten } from './model';
import type { Format } from './Tankstelle';
import { Badge, Hinweis, Stat, Tabelle } from './ui';

export const STATUS_VARIANTE = { keine: 'neutral', ohne_endgueltige: 'warning', mit_endgueltigen: 'success' } as const;
const STATUS_ICON = { mit_endgueltigen: 'check', ohne_endgueltige: 'alert', keine: 'minus' } as const;
const REIHENFOLGE = ['mit_endgueltigen', 'ohne_endgueltige', 'keine'] as const;

export function PumpView({ daten, f }: { daten: ZapfsaeulenDaten; f: Format }) {
  const { lang, texte } = f;
  const tx = texte.zapfsaeulen;
  return (
    <>
      <h2>{fill(tx.heading, { von: datum(daten.von, f.datumsformat), bis: datum(daten.bis, f.datumsformat) })}</h2>
      <p className="muted">{tx.hinweis}</p>
      {!daten.produkte.length && <Hinweis text={texte.leer.zapfsaeulen} />}
      {daten.produkte.map((p) => {
        const hid = `pumpe-${idTeil(p.produktNr)}`;
        const gesamt = p.anzahl.keine + p.anzahl.ohne_endgueltige + p.anzahl.mit_endgueltigen;
        const tabelle = fill(tx.tabelle, { produkt: p.produktName });
        return (
          <section key={p.produktNr} className="card pumpe" aria-labelledby={hid}>
            <h3 id={hid} className="card-title">{p.produktName} <span className="cell-sub">{p.produktNr}</span></h3>
            <dl className="stat-grid">
              <Stat label={tx.menge} value={menge(p.menge, lang)} />
              <Stat label={tx.bioMenge} value={menge(p.bioMenge, lang)} />
              <Stat label={tx.anzahl} value={wert(gesamt, lang)} />
            </dl>
            <ul className="pumpe-status" aria-label={tx.status}>
              {REIHENFOLGE.map((s) => (
                <li key={s}><Badge label={`${texte.zertifikatStatus[s]}: ${p.anzahl[s]}`} variante={STATUS_VARIANTE[s]} icon={STATUS_ICON[s]} /></li>
              ))}
            </ul>
            <Tabelle label={tabelle}>
              <thead>
                <tr>
                  <th scope="col">{tx.nr}</th>
                  <th scope="col">{tx.datum}</th>
                  <th scope="col">{tx.partner}</th>
                  <th scope="col" className="num">{tx.menge}</th>
                  <th scope="col" className="num">{tx.bioMenge}</th>
                  <th scope="col">{tx.status}</th>
                </tr>
              </thead>
              <tbody>
                {p.ablieferungen.map((a) => (
                  <tr key={a.nr}>
                    <th scope="row"><a href={a.href}>{a.nr}</a></th>
                    <td className="nowrap">{datum(a.datum, f.datumsformat)}</td>
                    <td>{a.partnerName || '–'}</td>
                    <td className="num">{menge(a.menge, lang, a.einheit)}</td>
                    <td className="num">{menge(a.bioMenge, lang)}</td>
                    <td><a className="badge-link" href={a.href}><Badge label={texte.zertifikatStatus[a.zertifikatStatus]} variante={STATUS_VARIANTE[a.zertifikatStatus]} /></a></td>
                  </tr>
                ))}
              </tbody>
            </Tabelle>
            {gesamt > p.ablieferungen.length && <p className="muted">{fill(tx.mehr, { anzahl: p.ablieferungen.length })}</p>}
          </section>
        );
      })}
    </>
  );
}
