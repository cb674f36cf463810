// The reports' part of the demo story: the generated stock follows the deliveries to the litre, so a
// Mengenbilanz would show no difference anywhere. A real tank farm measures less than its books say now and
// then (evaporation, a meter's tolerance): the latest recorded Bestand of each tenant's fullest tank is 1,250 L
// below the books, and the Mengenbilanz of any period up to today shows that difference (−1,250 L) there.
import type { MovementRows } from './bewegungsdaten.js';

export const MESSDIFFERENZ_L = 1250;

/** Lowers the latest Bestand of the fullest tank by MESSDIFFERENZ_L (in place); the tank it chose, if any. */
export function messdifferenz(rows: MovementRows): { standort_nr: string; produkt_nr: string; datum: string } | null {
  const letzterTag = rows.bestaende.reduce((max, b) => (String(b.datum) > max ? String(b.datum) : max), '');
  const voll = rows.bestaende.filter((b) => b.datum === letzterTag).sort((a, b) => Number(b.volumen) - Number(a.volumen))[0];
  if (!voll || Number(voll.volumen) < MESSDIFFERENZ_L * 2) return null;
  const vorher = Number(voll.volumen);
  const nachher = vorher - MESSDIFFERENZ_L;
  voll.volumen = String(nachher);
  if (voll.fuellstand != null) voll.fuellstand = ((Number(voll.fuellstand) * nachher) / vorher).toFixed(2);
  return { standort_nr: String(voll.standort_nr), produkt_nr: String(voll.produkt_nr), datum: letzterTag };
}
