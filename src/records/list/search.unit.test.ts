import { describe, expect, it } from 'vitest';
import { searchWords, WORD_LENGTH } from './search.js';

describe('searchWords', () => {
  it.each([
    ['Hansa', ['Hansa']],
    ['  Hansa   Diesel ', ['Hansa', 'Diesel']],
    ['Bremen, Diesel.', ['Bremen', 'Diesel']],
    ['"EL-2026-0001"', ['EL-2026-0001']],
    ['HH-AB 123', ['HH-AB', '123']],
    ['Hansa hansa Hansa', ['Hansa', 'hansa']],
    ['- , ;', []],
    ['', []],
  ])('%j → %j', (q, words) => {
    expect(searchWords(q)).toEqual(words);
  });

  it('cuts a word at the length the index keeps', () => {
    expect(searchWords('x'.repeat(100))).toEqual(['x'.repeat(WORD_LENGTH)]);
  });
});
