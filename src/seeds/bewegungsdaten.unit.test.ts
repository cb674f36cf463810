// The generator alone (no database): at the bench's volume, tanks run full or empty on busy days and
// deliveries wait; still every due delivery happens, and the stock follows the deliveries to the last day.
import { describe, expect, it } from 'vitest';
import type { Produktgruppe } from '../domain/fuels.js';
import { summe, type Einheit } from '../domain/units.js';
import { generateMovements } from './bewegungsdaten.js';

const standorte = [
  { nr: '1001', version: 1, name: 'Tanklager Hamburg' },
  { nr: '1002', version: 1, name: 'Tankstelle Kiel' },
  { nr: '1003', version: 1, name: 'Depot Bremen' },
];
const produkte = [
  { nr: 'P001', version: 1, produktgruppe: 'diesel', biogehalt: '7' },
  { nr: 'P002', version: 1, produktgruppe: 'benzin', biogehalt: '10' },
  { nr: 'P003', version: 1, produktgruppe: 'hvo', biogehalt: '100' },
];
const partner = [{ nr: 'TP001', version: 1 }];

describe('generateMovements', () => {
  it('gives exactly N deliveries each way even when tanks run full or empty, with the stock following them', () => {
    const perDirection = 100_000;
    const today = new Date('2026-11-21T00:00:00Z');
    const rows = generateMovements({ mandant: 'X', today, days: 365, stockDays: 90, perDirection, standorte, produkte, partner, seed: 4711 });
    expect(rows.einlieferungen.length).toBe(perDirection);
    expect(rows.ablieferungen.length).toBe(perDirection);
    expect(new Set(rows.einlieferungen.map((r) => r.nr)).size).toBe(perDirection);
    // Stock on the last day = stock on the day before + inbound − outbound of the last day (litres, not cancelled;
    // a delivery in kg converts with up to half a litre of rounding).
    const lastDay = today.toISOString().slice(0, 10);
    const dayBefore = new Date(today.getTime() - 86_400_000).toISOString().slice(0, 10);
    let checked = 0;
    for (const s of rows.bestaende.filter((b) => b.datum === lastDay)) {
      const prev = rows.bestaende.find((b) => b.datum === dayBefore && b.standort_nr === s.standort_nr && b.produkt_nr === s.produkt_nr)!;
      const moved = (list: Record<string, unknown>[]) =>
        list.filter((r) => r.datum === lastDay && r.standort_nr === s.standort_nr && r.produkt_nr === s.produkt_nr && !r.storniert);
      const litres = (list: Record<string, unknown>[]) =>
        Number(summe(list.map((r) => ({ menge: String(r.menge), einheit: r.einheit as Einheit, gruppe: r.produktgruppe as Produktgruppe })), 'L'));
      const [inbound, outbound] = [moved(rows.einlieferungen), moved(rows.ablieferungen)];
      const inKg = [...inbound, ...outbound].filter((r) => r.einheit === 'kg').length;
      expect(Math.abs(Number(s.volumen) - Number(prev.volumen) - (litres(inbound) - litres(outbound)))).toBeLessThanOrEqual(inKg / 2 + 1e-9);
      expect(Number(s.fuellstand)).toBeLessThanOrEqual(100);
      expect(Number(s.volumen)).toBeGreaterThanOrEqual(0);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
