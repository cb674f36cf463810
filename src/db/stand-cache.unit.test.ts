// The process-wide store of values kept while a master-data stand stands still (src/db/stand-cache.ts): bounded,
// shared by callers of the same moment, never keeping a failure. And the stand itself, as the session's read
// works it out from a tenant's change counters.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetStandCache, MASTER_TABLES, rememberWhileStand, stammdatenStand, STAND_CACHE_ENTRIES } from './stand-cache.js';

afterEach(() => forgetStandCache());

describe('rememberWhileStand', () => {
  it('shares one computation between callers of the same moment, and recomputes for another stand', async () => {
    let reads = 0;
    const read = async () => ({ read: ++reads });
    const [a, b] = await Promise.all([rememberWhileStand(['T', 'k'], '1', read), rememberWhileStand(['T', 'k'], '1', read)]);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    expect(await rememberWhileStand(['T', 'k'], '2', read)).toEqual({ read: 2 });
  });

  it('keeps no failure', async () => {
    await expect(rememberWhileStand(['T', 'f'], '1', () => Promise.reject(new Error('weg')))).rejects.toThrow('weg');
    expect(await rememberWhileStand(['T', 'f'], '1', async () => ({ ok: true }))).toEqual({ ok: true });
  });

  it(`keeps at most ${STAND_CACHE_ENTRIES} values, and lets the least recently used go first`, async () => {
    let reads = 0;
    const read = async () => ({ read: ++reads });
    for (let i = 0; i < STAND_CACHE_ENTRIES; i++) await rememberWhileStand(['T', i], '1', read);
    await rememberWhileStand(['T', 0], '1', read); // used again: now the most recent
    await rememberWhileStand(['T', 'new'], '1', read); // one too many: key 1 goes
    const before = reads;
    await rememberWhileStand(['T', 0], '1', read);
    expect(reads).toBe(before);
    await rememberWhileStand(['T', 1], '1', read);
    expect(reads).toBe(before + 1);
  });
});

describe('stammdatenStand', () => {
  it('sums the three master tables\' counters, a table never changed counting 0, and nothing else', () => {
    expect(stammdatenStand({})).toBe('0');
    expect(stammdatenStand({ produkte: '3', tauschpartner: '40', einlieferungen: '9000' })).toBe('43');
  });

  it('is exact beyond what a JavaScript number holds (counters are bigints, sent as text)', () => {
    expect(stammdatenStand({ produkte: '9007199254740993', standorte: '1', tauschpartner: '1' })).toBe('9007199254740995');
  });

  it('moves by exactly what a master table\'s counter moved, and not with another table\'s', () => {
    const counter = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String);
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...MASTER_TABLES, 'einlieferungen', 'bestaende'), counter), fc.constantFrom(...MASTER_TABLES), fc.bigInt({ min: 1n, max: 1000n }), (tabellen, table, by) => {
      const before = BigInt(stammdatenStand(tabellen));
      const moved = { ...tabellen, [table]: String(BigInt(tabellen[table] ?? 0) + by), einlieferungen: '1' };
      expect(BigInt(stammdatenStand(moved)) - before).toBe(by);
    }));
  });
});
