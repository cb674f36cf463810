// OneTurn: the reads of one turn of the event loop go out as one call, each read gets its own answer, and one
// read's bad value fails only that read.
import { describe, expect, it } from 'vitest';
import { OneTurn, isDataException } from './one-turn.js';

/** A readAll that records each call's values and answers each value doubled, or fails as told. */
function recorder(fail?: (batch: number[]) => unknown) {
  const calls: number[][] = [];
  const readAll = async (batch: number[]) => {
    calls.push(batch);
    const err = fail?.(batch);
    if (err) throw err;
    return batch.map((v) => v * 2);
  };
  return { calls, readAll };
}

const dataException = Object.assign(new Error('invalid byte sequence'), { code: '22021' });

describe('OneTurn', () => {
  it('sends the reads of one turn as one call, in order, and answers each its own', async () => {
    const { calls, readAll } = recorder();
    const turn = new OneTurn(readAll);
    expect(await Promise.all([1, 2, 3].map((v) => turn.read(v)))).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('sends a read of a later turn in a call of its own', async () => {
    const { calls, readAll } = recorder();
    const turn = new OneTurn(readAll);
    const first = turn.read(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = turn.read(2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(calls).toEqual([[1], [2]]);
  });

  it('sends a read made while a call is out in a new call, without waiting for the first answer', async () => {
    const calls: number[][] = [];
    const pending: (() => void)[] = [];
    const turn = new OneTurn(
      (batch: number[]) =>
        new Promise<number[]>((resolve) => {
          calls.push(batch);
          pending.push(() => resolve(batch.map((v) => v * 2)));
        }),
    );
    const first = turn.read(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([[1]]);
    const second = turn.read(2);
    await new Promise((resolve) => setImmediate(resolve));
    // The first call has not answered, and the second read went out on its own.
    expect(calls).toEqual([[1], [2]]);
    pending[1]();
    expect(await second).toBe(4);
    pending[0]();
    expect(await first).toBe(2);
  });

  it('refuses a `most` that could not send every read', () => {
    const { readAll } = recorder();
    for (const most of [0, -1, 1.5, Number.NaN]) expect(() => new OneTurn(readAll, { most })).toThrow(RangeError);
    expect(() => new OneTurn(readAll, { most: 1 })).not.toThrow();
  });

  it('sends at most `most` reads in one call', async () => {
    const { calls, readAll } = recorder();
    const turn = new OneTurn(readAll, { most: 2 });
    expect(await Promise.all([1, 2, 3, 4, 5].map((v) => turn.read(v)))).toEqual([2, 4, 6, 8, 10]);
    expect(calls).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("fails only the read whose value the database refuses, trying the others alone", async () => {
    const { calls, readAll } = recorder((batch) => (batch.includes(13) ? dataException : undefined));
    const turn = new OneTurn(readAll, { oneReadsFault: isDataException });
    const answers = await Promise.allSettled([1, 13, 3].map((v) => turn.read(v)));
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([2, 'invalid byte sequence', 6]);
    expect(calls).toEqual([[1, 13, 3], [1], [13], [3]]);
  });

  it('fails every read of the call for any other failure, without sending again', async () => {
    const down = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    const { calls, readAll } = recorder(() => down);
    const turn = new OneTurn(readAll, { oneReadsFault: isDataException });
    const answers = await Promise.allSettled([1, 2].map((v) => turn.read(v)));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toEqual([[1, 2]]);
  });

  it('tells a data exception by its SQLSTATE class', () => {
    expect([dataException, { code: '22P02' }, { code: '23505' }, { code: 'ECONNRESET' }, null, 'x'].map(isDataException)).toEqual([true, true, false, false, false, false]);
  });
});
