import { describe, expect, it } from 'vitest';
import { PRODUKTGRUPPEN } from './fuels.js';
import {
  ROHSTOFFE, ZERTIFIZIERUNGSSYSTEME, findeRohstoff, isKettenmodell, isLand, isRohstoff, isZertifizierungssystem, laenderListe, rohstoffPasst,
} from './rohstoffe.js';

const erlaubt = (gruppe: string) => ROHSTOFFE.filter((r) => (r.produktgruppen as readonly string[]).includes(gruppe)).map((r) => r.code).sort();

describe('raw materials and the product groups they may make (ROHSTOFF_PASST_NICHT)', () => {
  const ethanol = ['agrarreststoffe', 'getreide', 'holz', 'mais', 'weizen', 'zuckerrohr', 'zuckerruebe'];
  const oelpflanzen = ['palm', 'raps', 'soja', 'sonnenblume'];
  const fame = [...oelpflanzen, 'abfalloel', 'altspeiseoel', 'pome', 'talloel', 'tierfett'].sort();

  it.each([
    ['bioethanol', ethanol],
    ['benzin', ethanol], // a certificate for petrol certifies its ethanol
    ['biodiesel', fame],
    ['hvo', fame],
    ['diesel', fame], // … for diesel its FAME or HVO
    ['pflanzenoel', oelpflanzen],
  ])('%s: %j', (gruppe, codes) => {
    expect(erlaubt(gruppe)).toEqual(codes);
  });

  it('covers every product group, with lower-case ascii codes, each once', () => {
    for (const g of PRODUKTGRUPPEN) expect(erlaubt(g).length).toBeGreaterThan(0);
    for (const r of ROHSTOFFE) expect(r.code).toMatch(/^[a-z_]+$/);
    expect(new Set(ROHSTOFFE.map((r) => r.code)).size).toBe(ROHSTOFFE.length);
  });

  it('knows what is cultivated, a waste or a residue', () => {
    expect(findeRohstoff('raps')?.art).toBe('anbau');
    expect(findeRohstoff('altspeiseoel')?.art).toBe('abfall');
    expect(findeRohstoff('tierfett')?.art).toBe('abfall');
    expect(findeRohstoff('agrarreststoffe')?.art).toBe('reststoff');
    expect(findeRohstoff('kohle')).toBeUndefined();
  });

  it('says no for an unknown code', () => {
    expect(isRohstoff('raps')).toBe(true);
    expect(isRohstoff('Raps')).toBe(false);
    expect(rohstoffPasst('kohle', 'diesel')).toBe(false);
    expect(rohstoffPasst('zuckerruebe', 'biodiesel')).toBe(false);
    expect(rohstoffPasst('altspeiseoel', 'pflanzenoel')).toBe(false);
  });
});

describe('schemes and chain-of-custody options', () => {
  it('accepts the recognised schemes as written, nothing else', () => {
    expect(ZERTIFIZIERUNGSSYSTEME).toHaveLength(10);
    expect(isZertifizierungssystem('ISCC EU')).toBe(true);
    expect(isZertifizierungssystem('Nabisy')).toBe(true);
    expect(isZertifizierungssystem('iscc eu')).toBe(false);
    expect(isZertifizierungssystem('ISCC PLUS')).toBe(false);
    expect(isKettenmodell('massenbilanz')).toBe(true);
    expect(isKettenmodell('mass balance')).toBe(false);
  });
});

describe('countries (ISO 3166-1 alpha-2, from the runtime ICU data)', () => {
  it.each(['DE', 'FR', 'GB', 'US', 'CN', 'ID', 'MY', 'BR', 'AR', 'UA', 'XK'])('%s is a country', (code) => {
    expect(isLand(code)).toBe(true);
  });

  it.each([
    'de', 'DEU', 'D', '', // not upper-case alpha-2
    'EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', // groupings, private use
    'IC', 'EA', 'AC', // exceptionally reserved, part of another country
    'UK', 'YU', 'SU', 'ZR', // withdrawn: ICU still names them, under their successors
    'AA', 'QQ', // unassigned
  ])('%j is not', (code) => {
    expect(isLand(code)).toBe(false);
  });

  it('lists the countries sorted by their name in the language, once', () => {
    const de = laenderListe('de');
    const en = laenderListe('en');
    expect(de.length).toBeGreaterThanOrEqual(249);
    expect(en.map((l) => l.code).sort()).toEqual(de.map((l) => l.code).sort());
    expect(de.find((l) => l.code === 'DE')?.name).toBe('Deutschland');
    expect(en.find((l) => l.code === 'DE')?.name).toBe('Germany');
    const collator = new Intl.Collator('de');
    for (let i = 1; i < de.length; i++) expect(collator.compare(de[i - 1].name, de[i].name)).toBeLessThanOrEqual(0);
    // Ägypten sorts with A in German, not after Z.
    expect(de.findIndex((l) => l.code === 'EG')).toBeLessThan(de.findIndex((l) => l.code === 'BE'));
    expect(laenderListe('de')).toBe(de);
  });
});
