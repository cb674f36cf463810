// The tank traffic light's seven states from constructed tanks, the threshold's boundary, and its invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AMPEL_DARSTELLUNG, TANK_AMPELN, tankAmpel, type TankEingabe, type TankEinlieferung } from './tankampel.js';

const lieferung = (nr: string, datum: string, rest: string, x: Partial<TankEinlieferung> = {}): TankEinlieferung => ({
  nr, datum, rest, restVorlaeufig: '0', abgeschlossen: true, ...x,
});
const tank = (x: Partial<TankEingabe>): TankEingabe => ({
  einlieferungen: [], unverknuepfteZertifikate: 0, abgabeBio: '0', verbrauchTage: 14, reichweiteTage: 14, ...x,
});

describe('tankAmpel: the seven states', () => {
  it('keine_lieferungen: the tank never had an inbound delivery', () => {
    expect(tankAmpel(tank({ abgabeBio: '500' })).ampel).toBe('keine_lieferungen');
  });

  it('keine_aktive_lieferung: deliveries, but none with certificate rest left', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-10-01', '0'), lieferung('E2', '2026-11-01', '0')], abgabeBio: '700' }));
    expect(r).toMatchObject({ ampel: 'keine_aktive_lieferung', aktiv: null, deckung: '0', reichweiteTage: null });
  });

  it('vorlaeufiges_zertifikat: part of the cover is provisional, before any reach is judged', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', '1000'), lieferung('E2', '2026-11-10', '400', { restVorlaeufig: '400' })], abgabeBio: '14000' }));
    expect(r.ampel).toBe('vorlaeufiges_zertifikat');
    expect(r.deckung).toBe('1400');
  });

  it('ausreichend: 14,000 L rest at 700 L a day (9,800 L in 14 days) reaches 20 days', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', '14000')], abgabeBio: '9800' }));
    expect(r).toMatchObject({ ampel: 'ausreichend', verbrauchProTag: '700', reichweiteTage: 20, nachfolger: false, aktiv: { nr: 'E1', rest: '14000' } });
  });

  it('ausreichend_mit_nachfolger: enough, and a delivery still under way waits', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', '14000'), lieferung('E2', '2026-11-20', '0', { abgeschlossen: false })], abgabeBio: '9800' }));
    expect(r.ampel).toBe('ausreichend_mit_nachfolger');
  });

  it('niedrig_mit_nachfolger: the active delivery lasts 5 days; a later delivery with rest does not hide that', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E2', '2026-11-20', '50000'), lieferung('E1', '2026-11-01', '3500')], abgabeBio: '9800' }));
    expect(r).toMatchObject({ ampel: 'niedrig_mit_nachfolger', aktiv: { nr: 'E1', rest: '3500' }, reichweiteTage: 5, deckung: '53500' });
  });

  it('niedrig_mit_nachfolger: a certificate for the tank not yet linked is a successor too', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', '3500')], unverknuepfteZertifikate: 1, abgabeBio: '9800' }));
    expect(r.ampel).toBe('niedrig_mit_nachfolger');
  });

  it('niedrig_ohne_nachfolger: low, nothing follows', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E0', '2026-10-01', '0'), lieferung('E1', '2026-11-01', '3500')], abgabeBio: '9800' }));
    expect(r).toMatchObject({ ampel: 'niedrig_ohne_nachfolger', nachfolger: false });
  });

  it('every state has a colour and an icon, and the colours are those of section 5', () => {
    expect(Object.keys(AMPEL_DARSTELLUNG).sort()).toEqual([...TANK_AMPELN].sort());
    expect(TANK_AMPELN.map((a) => AMPEL_DARSTELLUNG[a].farbe)).toEqual(['grau', 'grau', 'blau', 'gruen', 'gruen', 'gelb', 'rot']);
    expect(new Set(Object.values(AMPEL_DARSTELLUNG).map((d) => d.icon)).size).toBe(TANK_AMPELN.length);
  });
});

describe('tankAmpel: the threshold', () => {
  // 700 L a day: exactly 14 days is 9,800 L.
  const mit = (rest: string, reichweiteTage = 14) => tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', rest)], abgabeBio: '9800', reichweiteTage })).ampel;
  it('exactly 14 days is sufficient; a millilitre less is low', () => {
    expect(mit('9800')).toBe('ausreichend');
    expect(mit('9799.999')).toBe('niedrig_ohne_nachfolger');
  });
  it('the threshold is the tenant setting', () => {
    expect(mit('9800', 15)).toBe('niedrig_ohne_nachfolger');
    expect(mit('4900', 7)).toBe('ausreichend');
  });
  it('no outbound use means an unbounded reach', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', '0.001')] }));
    expect(r).toMatchObject({ ampel: 'ausreichend', reichweiteTage: null, verbrauchProTag: '0' });
  });
  it('the use is spread over the setting’s days', () => {
    const r = tankAmpel(tank({ einlieferungen: [lieferung('E1', '2026-11-01', '7000')], abgabeBio: '7000', verbrauchTage: 7 }));
    expect(r).toMatchObject({ verbrauchProTag: '1000', reichweiteTage: 7, ampel: 'niedrig_ohne_nachfolger' });
  });
  it('refuses settings below one day', () => {
    expect(() => tankAmpel(tank({ verbrauchTage: 0 }))).toThrow(RangeError);
  });
});

describe('tankAmpel: invariants', () => {
  const menge = fc.integer({ min: 0, max: 5_000_000 }).map((n) => (n / 1000).toString());
  // Delivery numbers are unique in a tenant (the key): two deliveries of one day are ordered by it.
  const lieferungen = fc.uniqueArray(fc.record({
    nr: fc.string({ minLength: 1, maxLength: 4 }),
    datum: fc.integer({ min: 1, max: 28 }).map((d) => `2026-11-${String(d).padStart(2, '0')}`),
    rest: menge,
    vorlaeufig: fc.boolean(),
    abgeschlossen: fc.boolean(),
  }), { maxLength: 8, selector: (l) => l.nr }).map((ls) => ls.map((l) => lieferung(l.nr, l.datum, l.rest, { abgeschlossen: l.abgeschlossen, restVorlaeufig: l.vorlaeufig ? l.rest : '0' })));
  const eingabe = fc.record({
    einlieferungen: lieferungen,
    unverknuepfteZertifikate: fc.integer({ min: 0, max: 2 }),
    abgabeBio: menge,
    verbrauchTage: fc.integer({ min: 1, max: 60 }),
    reichweiteTage: fc.integer({ min: 1, max: 60 }),
  });

  it('the order of the deliveries does not matter', () => {
    fc.assert(fc.property(eingabe, (e) => {
      expect(tankAmpel({ ...e, einlieferungen: [...e.einlieferungen].reverse() })).toEqual(tankAmpel(e));
    }));
  });

  it('a sufficient tank stays sufficient with more rest, a low one stays low with more use', () => {
    fc.assert(fc.property(eingabe, menge, (e, mehr) => {
      const r = tankAmpel(e);
      if (!r.aktiv || r.ampel === 'vorlaeufiges_zertifikat') return;
      const more = { ...e, einlieferungen: e.einlieferungen.map((l) => (l.nr === r.aktiv!.nr ? { ...l, rest: (Number(l.rest) + Number(mehr)).toFixed(3) } : l)) };
      if (r.ampel.startsWith('ausreichend')) expect(tankAmpel(more).ampel.startsWith('ausreichend')).toBe(true);
      const busier = { ...e, abgabeBio: (Number(e.abgabeBio) + Number(mehr)).toFixed(3) };
      if (r.ampel.startsWith('niedrig')) expect(tankAmpel(busier).ampel.startsWith('niedrig')).toBe(true);
    }));
  });

  it('the cover is the sum of the rests, and the active rest never exceeds it', () => {
    fc.assert(fc.property(eingabe, (e) => {
      const r = tankAmpel(e);
      const sum = e.einlieferungen.reduce((s, l) => s + Math.round(Number(l.rest) * 1000), 0);
      expect(Math.round(Number(r.deckung) * 1000)).toBe(sum);
      if (r.aktiv) expect(Number(r.aktiv.rest)).toBeLessThanOrEqual(Number(r.deckung));
      expect(TANK_AMPELN).toContain(r.ampel);
    }));
  });
});
