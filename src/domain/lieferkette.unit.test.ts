// The chain of custody's pure rules with worked numbers (certificates-and-balances.md section 3), and the
// invariants that lists, pages and the tracing rely on, as properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRODUKTGRUPPEN } from './fuels.js';
import {
  AKTIV_MONATE, ausMilli, bioMenge, milli, plusMonate, VERFOLGUNG_STATUS, verfolgungStatus, verknuepfungStatus, zertifikatStatus,
  type VerfolgungEingabe,
} from './lieferkette.js';

describe('milli and ausMilli: exact thousandths', () => {
  it.each([
    ['12.5', 12_500n],
    ['0', 0n],
    ['10000.000', 10_000_000n],
    ['0.001', 1n],
    ['0.0005', 1n], // half away from zero
    ['0.0004', 0n],
    ['-0.0005', -1n],
    ['-3.25', -3_250n],
    [' 7 ', 7_000n],
  ] as const)('milli(%j) = %s', (text, value) => {
    expect(milli(text)).toBe(value);
  });

  it('takes numbers as their decimal text', () => {
    expect(milli(1.5)).toBe(1_500n);
    expect(milli(700)).toBe(700_000n);
  });

  it.each(['', 'abc', '1,5', '1e3', '--1', '.5'])('refuses %j', (text) => {
    expect(() => milli(text)).toThrow(RangeError);
  });

  it.each([
    [12_500n, '12.5'],
    [0n, '0'],
    [1_000n, '1'],
    [1n, '0.001'],
    [-1n, '-0.001'],
    [700_000n, '700'],
    [624_400n, '624.4'],
  ] as const)('ausMilli(%s) = %j', (value, text) => {
    expect(ausMilli(value)).toBe(text);
  });

  it('round-trips every value (property)', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (v) => milli(ausMilli(v)) === v));
  });
});

describe('bioMenge: the part of a delivery certificates may cover', () => {
  it('10,000 L of B7 at 7 % hold 700 L', () => {
    expect(bioMenge({ menge: '10000', einheit: 'L', biogehalt: '7', gruppe: 'diesel' })).toBe('700');
  });

  it('in kg with the bio component\'s reference density: 700 L FAME × 0.892 kg/L = 624.4 kg', () => {
    expect(bioMenge({ menge: '10000', einheit: 'L', biogehalt: '7', gruppe: 'diesel' }, 'kg')).toBe('624.4');
    // E10 petrol: 1,000 L × 10 % = 100 L ethanol × 0.778 = 77.8 kg.
    expect(bioMenge({ menge: '1000', einheit: 'L', biogehalt: '10', gruppe: 'benzin' }, 'kg')).toBe('77.8');
  });

  it('from kg to L: 1,000 kg of B100 / 0.892 = 1,121.076 L', () => {
    expect(bioMenge({ menge: '1000', einheit: 'kg', biogehalt: '100', gruppe: 'biodiesel' }, 'L')).toBe('1121.076');
  });

  it('without a bio content the whole quantity; with 0 % nothing', () => {
    expect(bioMenge({ menge: '12500.5', einheit: 'L', biogehalt: null, gruppe: 'biodiesel' })).toBe('12500.5');
    expect(bioMenge({ menge: '12500.5', einheit: 'L', biogehalt: '0', gruppe: 'diesel' })).toBe('0');
  });

  it('rounds to the thousandth, half away from zero: 12,500.5 L at 30 % = 3,750.15 L; 0.005 L at 10 % = 0.001 L', () => {
    expect(bioMenge({ menge: '12500.5', einheit: 'L', biogehalt: '30', gruppe: 'biodiesel' })).toBe('3750.15');
    expect(bioMenge({ menge: '0.005', einheit: 'L', biogehalt: '10', gruppe: 'biodiesel' })).toBe('0.001');
    expect(bioMenge({ menge: '1', einheit: 'L', biogehalt: '7.1234', gruppe: 'diesel' })).toBe('0.071');
  });

  const menge = fc.integer({ min: 1, max: 5_000_000_000 }).map((m) => ausMilli(BigInt(m)));
  const prozent = fc.integer({ min: 0, max: 1_000_000 }).map((p) => ausMilli(BigInt(p) / 10n)); // 0–100 %, to the ten-thousandth
  const gruppe = fc.constantFrom(...PRODUKTGRUPPEN);
  const einheit = fc.constantFrom('L' as const, 'kg' as const);

  it('is never more than the delivery nor less than nothing, and the whole of it at 100 % (property)', () => {
    fc.assert(
      fc.property(menge, prozent, gruppe, einheit, (m, p, g, e) => {
        const bio = milli(bioMenge({ menge: m, einheit: e, biogehalt: p, gruppe: g }));
        return bio >= 0n && bio <= milli(m) && milli(bioMenge({ menge: m, einheit: e, biogehalt: '100', gruppe: g })) === milli(m);
      }),
    );
  });
});

describe('verknuepfungStatus: an inbound delivery\'s link', () => {
  it.each([
    [null, [], 'nicht_verknuepft'],
    [null, [true], 'nicht_verknuepft'],
    ['AB-1', [false, false], 'endgueltig'],
    ['AB-1', [false, true], 'vorlaeufig'],
    ['AB-1', [true], 'vorlaeufig'],
  ] as const)('collection %j with provisional flags %j: %s', (abholung, flags, status) => {
    expect(verknuepfungStatus(abholung, flags)).toBe(status);
  });
});

describe('zertifikatStatus: an outbound delivery\'s certificates', () => {
  const endgueltig = (volumen: string) => ({ volumen, vorlaeufig: false });
  it('nothing assigned: keine', () => {
    expect(zertifikatStatus('700', [])).toBe('keine');
  });
  it('exactly covered with final certificates (400 + 300 of 700 L): mit_endgueltigen', () => {
    expect(zertifikatStatus('700', [endgueltig('400'), endgueltig('300')])).toBe('mit_endgueltigen');
    expect(zertifikatStatus('624.4', [endgueltig('624.400')])).toBe('mit_endgueltigen');
  });
  it('1 L short, or a thousandth: ohne_endgueltige', () => {
    expect(zertifikatStatus('700', [endgueltig('699')])).toBe('ohne_endgueltige');
    expect(zertifikatStatus('700', [endgueltig('400'), endgueltig('299.999')])).toBe('ohne_endgueltige');
  });
  it('covered but one certificate provisional: ohne_endgueltige', () => {
    expect(zertifikatStatus('700', [endgueltig('400'), { volumen: '300', vorlaeufig: true }])).toBe('ohne_endgueltige');
  });
  it('more than covered with final ones: mit_endgueltigen', () => {
    expect(zertifikatStatus('700', [endgueltig('800')])).toBe('mit_endgueltigen');
  });

  const volumen = fc.integer({ min: 1, max: 10_000_000 }).map((v) => ausMilli(BigInt(v)));
  const zuordnungen = fc.array(fc.record({ volumen, vorlaeufig: fc.boolean() }), { maxLength: 8 });

  it('is never mit_endgueltigen when one is provisional or the sum is below the bio quantity (property)', () => {
    fc.assert(
      fc.property(volumen, zuordnungen, (bio, z) => {
        const status = zertifikatStatus(bio, z);
        const summe = z.reduce((s, x) => s + milli(x.volumen), 0n);
        if (z.some((x) => x.vorlaeufig) || summe < milli(bio)) return status !== 'mit_endgueltigen';
        return status === 'mit_endgueltigen';
      }),
    );
  });
  it('is keine exactly when nothing is assigned (property)', () => {
    fc.assert(fc.property(volumen, zuordnungen, (bio, z) => (zertifikatStatus(bio, z) === 'keine') === (z.length === 0)));
  });
});

describe('plusMonate', () => {
  it.each([
    ['2026-03-31', 12, '2027-03-31'],
    ['2026-01-31', 1, '2026-02-28'],
    ['2024-01-31', 1, '2024-02-29'], // leap year
    ['2024-02-29', 12, '2025-02-28'],
    ['2026-05-31', 1, '2026-06-30'],
    ['2026-12-15', 1, '2027-01-15'],
    ['2026-01-15', -1, '2025-12-15'],
    ['2026-03-31', -1, '2026-02-28'],
    ['2026-06-30', 0, '2026-06-30'],
    ['2026-06-30T10:00:00Z', 1, '2026-07-30'],
  ] as const)('%s + %i months = %s', (von, monate, bis) => {
    expect(plusMonate(von, monate)).toBe(bis);
  });

  const tag = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  it('moves the month by exactly that many and never past the month\'s last day (property)', () => {
    fc.assert(
      fc.property(tag, fc.integer({ min: -240, max: 240 }), (von, monate) => {
        const bis = plusMonate(von, monate);
        const [y1, m1, d1] = von.split('-').map(Number);
        const [y2, m2, d2] = bis.split('-').map(Number);
        const letzter = new Date(Date.UTC(y2, m2, 0)).getUTCDate();
        return y2 * 12 + m2 - (y1 * 12 + m1) === monate && d2 === Math.min(d1, letzter) && !Number.isNaN(Date.parse(bis));
      }),
    );
  });
});

describe('verfolgungStatus: the tracking label', () => {
  // A certificate for the first quarter of 2026: it expires on 15 April 2027 (nachweisAblauf), and its period
  // ended 12 months before 31 March 2027.
  const q1: VerfolgungEingabe = { rest: '5000', vorlaeufig: false, lieferungOffen: false, zeitraumBis: '2026-03-31', ablauf: '2027-04-15', heute: '2026-06-01' };
  // One for the whole of 2026: expires 15 April 2027, long before its 12 months after the period are over.
  const jahr: VerfolgungEingabe = { ...q1, zeitraumBis: '2026-12-31', ablauf: '2027-04-15' };

  it('rest and in time: aktiv', () => {
    expect(verfolgungStatus(q1)).toBe('aktiv');
  });
  it('nothing left: verbraucht (also after its expiry)', () => {
    expect(verfolgungStatus({ ...q1, rest: '0' })).toBe('verbraucht');
    expect(verfolgungStatus({ ...q1, rest: '0.000', heute: '2030-01-01' })).toBe('verbraucht');
  });
  it('on its expiry date still aktiv, one day after abgelaufen', () => {
    expect(verfolgungStatus({ ...jahr, heute: '2027-04-15' })).toBe('aktiv');
    expect(verfolgungStatus({ ...jahr, heute: '2027-04-16' })).toBe('abgelaufen');
  });
  it(`${AKTIV_MONATE} months after its period ended still aktiv, one day later abgelaufen (before 15 April)`, () => {
    expect(verfolgungStatus({ ...q1, heute: '2027-03-31' })).toBe('aktiv');
    expect(verfolgungStatus({ ...q1, heute: '2027-04-01' })).toBe('abgelaufen');
  });
  it('without a period only the expiry counts', () => {
    expect(verfolgungStatus({ ...q1, zeitraumBis: null, heute: '2027-04-15' })).toBe('aktiv');
    expect(verfolgungStatus({ ...q1, zeitraumBis: null, heute: '2027-04-16' })).toBe('abgelaufen');
  });
  it('provisional, or linked to a delivery not yet completed: ausstehend, before everything else', () => {
    expect(verfolgungStatus({ ...q1, vorlaeufig: true })).toBe('ausstehend');
    expect(verfolgungStatus({ ...q1, lieferungOffen: true })).toBe('ausstehend');
    expect(verfolgungStatus({ ...q1, vorlaeufig: true, rest: '0' })).toBe('ausstehend');
    expect(verfolgungStatus({ ...q1, lieferungOffen: true, heute: '2030-01-01' })).toBe('ausstehend');
  });

  const tag = fc.date({ min: new Date('2015-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const eingabe = fc.record({
    rest: fc.integer({ min: -1000, max: 10_000_000 }).map((v) => ausMilli(BigInt(v))),
    vorlaeufig: fc.boolean(),
    lieferungOffen: fc.boolean(),
    zeitraumBis: fc.option(tag, { nil: null }),
    ablauf: tag,
    heute: tag,
  });

  it('is total: always one of the four labels (property)', () => {
    fc.assert(fc.property(eingabe, (e) => VERFOLGUNG_STATUS.includes(verfolgungStatus(e))));
  });
  it('is ausstehend whenever provisional or linked to an open delivery, and only then (property)', () => {
    fc.assert(fc.property(eingabe, (e) => (verfolgungStatus(e) === 'ausstehend') === (e.vorlaeufig || e.lieferungOffen)));
  });
  it('is verbraucht exactly when nothing remains of a settled certificate (property)', () => {
    fc.assert(
      fc.property(eingabe, (e) => {
        const settled = { ...e, vorlaeufig: false, lieferungOffen: false };
        return (verfolgungStatus(settled) === 'verbraucht') === (milli(e.rest) <= 0n);
      }),
    );
  });
  it('is never aktiv after its expiry (property)', () => {
    fc.assert(fc.property(eingabe, (e) => !(e.heute > e.ablauf && verfolgungStatus(e) === 'aktiv')));
  });
});
