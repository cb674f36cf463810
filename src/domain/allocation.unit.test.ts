// The allocation engine against the worked example of certificates-and-balances.md section 4, line by line,
// and its invariants for any input (fast-check).
import fc from 'fast-check';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResources } from '../http/i18n.js';
import { begruendungText, verteile, type AllocationLieferung, type AllocationPosition, type AllocationZertifikat } from './allocation.js';

const BASISWERT = '94.1';
/** Location 1001, biodiesel B100 (LCV 33 MJ/L), 2026-01-01 to 2026-03-31. */
const zertifikate: AllocationZertifikat[] = [
  { nr: 'N-1', rest: '20000', lieferungVon: '2026-01-05', thg: '12', lcv: '33' },
  { nr: 'N-2', rest: '15000', lieferungVon: '2026-02-10', thg: '20', lcv: '33' },
  { nr: 'N-3', rest: '10000', lieferungVon: '2026-03-01', thg: '8', lcv: '33' },
];
const positionen: AllocationPosition[] = [
  { id: 'p2', partnerNr: 'TP002', prioritaet: 2, biogehalt: null, bioMenge: '8000' },
  { id: 'p1', partnerNr: 'TP001', prioritaet: 1, biogehalt: '100', bioMenge: null },
];
const b100 = (nr: string, partnerNr: string, datum: string, menge: string): AllocationLieferung => ({ nr, partnerNr, datum, menge, bioMenge: menge });
const lieferungen = [
  b100('A-1', 'TP002', '2026-01-20', '6000'),
  b100('A-2', 'TP001', '2026-01-25', '18000'),
  b100('A-3', 'TP001', '2026-02-15', '12000'),
  b100('A-4', 'TP002', '2026-03-10', '5000'),
];

describe('the worked example', () => {
  const r = verteile({ zertifikate, positionen, lieferungen, basiswert: BASISWERT });

  it('gives the six lines of the table, priority before age, two E values for A-3, never averaged', () => {
    expect(r.zeilen.map((z) => [z.ablieferungNr, z.nachweisNr, z.menge, z.thg, z.thgMinderungT])).toEqual([
      ['A-2', 'N-1', '18000', '12', '48.7674'],
      ['A-3', 'N-1', '2000', '12', '5.4186'],
      ['A-3', 'N-2', '10000', '20', '24.453'],
      ['A-1', 'N-2', '5000', '20', '12.2265'],
      ['A-1', 'N-3', '1000', '8', '2.8413'],
      ['A-4', 'N-3', '2000', '8', '5.6826'],
    ]);
  });

  it('assigns 38,000 L, leaves 7,000 L (all N-3), saves 99.3894 t, and leaves 3,000 L of A-4 not covered', () => {
    expect(r).toMatchObject({ eingang: '45000', zugeordnet: '38000', restBioMenge: '7000', thgMinderungT: '99.3894' });
    expect(r.nichtGedeckt).toEqual([{ ablieferungNr: 'A-4', positionId: 'p2', offen: '3000' }]);
  });

  // The reasons in words, through the real locale files.
  const t = { de: i18next.createInstance(), en: i18next.createInstance() };
  beforeAll(async () => {
    const resources = loadResources();
    for (const lng of ['de', 'en'] as const) await t[lng].init({ lng, resources, ns: Object.keys(resources.de), interpolation: { escapeValue: false } });
  });
  const text = (lng: 'de' | 'en', b: (typeof r.zeilen)[number]['begruendung']) =>
    begruendungText(b, (key, params) => t[lng].t(key, params), (v) => `${Number(v).toLocaleString(lng === 'de' ? 'de-DE' : 'en-GB')} L`);

  it('says why, for every line', () => {
    const texte = r.zeilen.map((z) => text('de', z.begruendung));
    expect(texte[0]).toBe('Priorität 1 für Partner TP001; Zertifikat N-1 ist das älteste mit Rest 20.000 L');
    expect(texte[1]).toBe('Priorität 1 für Partner TP001; Zertifikat N-1 ist das älteste mit Rest 2.000 L; damit ist N-1 aufgebraucht; 10.000 L der Lieferung bleiben offen');
    expect(texte[2]).toBe('Priorität 1 für Partner TP001; Zertifikat N-2 ist das älteste mit Rest 15.000 L (N-1 ist aufgebraucht)');
    expect(texte[3]).toBe('Priorität 2 für Partner TP002; Zertifikat N-2 ist das älteste mit Rest 5.000 L (N-1 ist aufgebraucht); damit ist N-2 aufgebraucht; Bio-Menge der Position: noch 8.000 L; 1.000 L der Lieferung bleiben offen');
    expect(texte[5]).toBe('Priorität 2 für Partner TP002; Zertifikat N-3 ist das älteste mit Rest 9.000 L (N-2 ist aufgebraucht); Bio-Menge der Position: noch 2.000 L; 3.000 L der Lieferung bleiben offen');
    expect(text('en', r.zeilen[0].begruendung)).toBe('priority 1 for partner TP001; certificate N-1 is the oldest with rest 20,000 L');
  });
});

describe('a delivery partly covered already (by hand, or by a closed position)', () => {
  it('covers only what stays open of it, and the rest goes on down the line', () => {
    const teils = lieferungen.map((l) => (l.nr === 'A-2' ? { ...l, gedeckt: '5000' } : l));
    const r = verteile({ zertifikate, positionen, lieferungen: teils, basiswert: BASISWERT });
    expect(r.zeilen.map((z) => [z.ablieferungNr, z.nachweisNr, z.menge])).toEqual([
      ['A-2', 'N-1', '13000'],
      ['A-3', 'N-1', '7000'],
      ['A-3', 'N-2', '5000'],
      ['A-1', 'N-2', '6000'],
      ['A-4', 'N-2', '2000'],
    ]);
    expect(r).toMatchObject({ zugeordnet: '33000', restBioMenge: '12000' });
  });

  it('takes nothing for a delivery covered in full', () => {
    const r = verteile({ zertifikate, positionen, lieferungen: lieferungen.map((l) => ({ ...l, gedeckt: l.bioMenge })), basiswert: BASISWERT });
    expect(r.zeilen).toEqual([]);
    expect(r.restBioMenge).toBe('45000');
  });
});

// Any input: a few certificates, positions and deliveries with quantities to the thousandth.
const menge = fc.integer({ min: 1, max: 50_000_000 }).map((m) => (m / 1000).toString());
const datum = fc.integer({ min: 0, max: 89 }).map((d) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10));
const partner = fc.constantFrom('TP001', 'TP002', 'TP003');
const eingabe = fc.record({
  zertifikate: fc.uniqueArray(fc.record({ nr: fc.constantFrom('N-1', 'N-2', 'N-3', 'N-4', 'N-5'), rest: menge, lieferungVon: fc.option(datum), thg: fc.constantFrom('8', '12', '20'), lcv: fc.constant('33') }), { selector: (z) => z.nr, maxLength: 5 }),
  positionen: fc.uniqueArray(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), partnerNr: partner, prioritaet: fc.integer({ min: 1, max: 3 }), biogehalt: fc.option(fc.constantFrom('7', '50', '100')), bioMenge: fc.option(menge) }), { selector: (p) => p.id, maxLength: 4 }),
  lieferungen: fc.uniqueArray(fc.record({ nr: fc.constantFrom('A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6'), partnerNr: partner, datum, menge, bioMenge: menge }), { selector: (l) => l.nr, maxLength: 6 }),
});
const milli = (v: string) => BigInt(Math.round(Number(v) * 1000));

describe('the engine, for any input', () => {
  it('never assigns more than a certificate has, no line is zero or negative, and the rest is what remains', () => {
    fc.assert(fc.property(eingabe, (e) => {
      const r = verteile({ ...e, basiswert: BASISWERT });
      for (const z of r.zeilen) expect(milli(z.menge) > 0n).toBe(true);
      for (const c of e.zertifikate) {
        const used = r.zeilen.filter((z) => z.nachweisNr === c.nr).reduce((s, z) => s + milli(z.menge), 0n);
        expect(used <= milli(c.rest)).toBe(true);
      }
      expect(milli(r.restBioMenge)).toBe(milli(r.eingang) - milli(r.zugeordnet));
      expect(milli(r.restBioMenge) >= 0n).toBe(true);
      // One line per (delivery, certificate) of a position.
      expect(new Set(r.zeilen.map((z) => `${z.positionId}|${z.ablieferungNr}|${z.nachweisNr}`)).size).toBe(r.zeilen.length);
    }));
  });

  it('never covers a delivery beyond its greatest demand, nor a position beyond its cap', () => {
    fc.assert(fc.property(eingabe, (e) => {
      const r = verteile({ ...e, basiswert: BASISWERT });
      for (const l of e.lieferungen) {
        const own = e.positionen.filter((p) => p.partnerNr === l.partnerNr);
        const demands = own.map((p) => (p.biogehalt == null ? milli(l.bioMenge) : (milli(l.menge) * BigInt(Number(p.biogehalt) * 1000) + 50_000n) / 100_000n));
        const most = demands.reduce((m, d) => (d > m ? d : m), 0n);
        const covered = r.zeilen.filter((z) => z.ablieferungNr === l.nr).reduce((s, z) => s + milli(z.menge), 0n);
        expect(covered <= most).toBe(true);
      }
      for (const p of e.positionen.filter((x) => x.bioMenge != null)) {
        const taken = r.zeilen.filter((z) => z.positionId === p.id).reduce((s, z) => s + milli(z.menge), 0n);
        expect(taken <= milli(p.bioMenge!)).toBe(true);
      }
    }));
  });

  it('gives the same lines for the same input, in whatever order it comes', () => {
    fc.assert(fc.property(eingabe, (e) => {
      const a = verteile({ ...e, basiswert: BASISWERT });
      const b = verteile({ zertifikate: [...e.zertifikate].reverse(), positionen: [...e.positionen].reverse(), lieferungen: [...e.lieferungen].reverse(), basiswert: BASISWERT });
      expect(b).toEqual(a);
    }));
  });

  it('leaves its input as it was (a reset is the state before allocation)', () => {
    fc.assert(fc.property(eingabe, (e) => {
      const before = JSON.stringify(e);
      verteile({ ...e, basiswert: BASISWERT });
      expect(JSON.stringify(e)).toBe(before);
    }));
  });
});
