// The help pages' search: a plain GET form (?q=…) answered on the server, so it works without JavaScript.
// The guide and the FAQ are a few dozen sections held in memory; a scan of them with one regular expression
// per word is far below a millisecond, so there is no index to keep in step.
//
// Every word of the query must occur in a section (its title or its text). A word matches regardless of case
// and of hyphens, soft hyphens or a space inside it, so "Importcode" finds "Import-Code" and "import code",
// and a plain vowel also finds its umlaut ("Bestande" finds "Bestände"). Hits in the title count five
// times, the words side by side as typed twice again.

export interface Searchable {
  id: string;
  title: string;
  text: string;
}

export interface SearchHit<T extends Searchable = Searchable> {
  item: T;
  score: number;
  /** The title with the words marked (HTML, escaped). */
  titleHtml: string;
  /** Up to SNIPPET characters of text around the first hit, the words marked (HTML, escaped). */
  snippetHtml: string;
}

export const MAX_QUERY_LENGTH = 200;
const MAX_WORDS = 8;
const SNIPPET = 200;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const FOLD: Record<string, string> = { a: '[aä]', o: '[oö]', u: '[uü]', ä: '(?:ä|ae)', ö: '(?:ö|oe)', ü: '(?:ü|ue)', ß: '(?:ß|ss)' };
const JOINER = '[-\\u00ad\\s]?';

/** The words of a query (at most MAX_WORDS, each at least two characters), lower case. */
export function queryWords(q: string): string[] {
  const words = q
    .slice(0, MAX_QUERY_LENGTH)
    .toLowerCase()
    .split(/[\s,;]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length >= 2);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

const DIGRAPHS: Record<string, string> = { ae: '(?:ae|ä)', oe: '(?:oe|ö)', ue: '(?:ue|ü)', ss: '(?:ss|ß)' };

/**
 * A word as a pattern: any case, umlauts folded both ways ("ä" finds "ae", "ae" finds "ä"), a hyphen, soft
 * hyphen or space allowed between two of its letters.
 */
export function wordPattern(word: string): string {
  const chars = [...word.replace(/-/g, '')];
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const pair = DIGRAPHS[chars[i] + (chars[i + 1] ?? '')];
    if (pair) {
      parts.push(pair);
      i++;
    } else parts.push(FOLD[chars[i]] ?? chars[i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  }
  return parts.join(JOINER);
}

/** The text with every occurrence of the words in <mark>, the rest escaped. */
export function markWords(text: string, words: string[]): string {
  if (!words.length) return escapeHtml(text);
  const re = new RegExp(words.map(wordPattern).join('|'), 'giu');
  let out = '';
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (!m[0]) continue;
    out += escapeHtml(text.slice(last, m.index)) + `<mark>${escapeHtml(m[0])}</mark>`;
    last = m.index! + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** About SNIPPET characters of the text around the first word found, cut at spaces, with "…" where cut. */
export function snippetOf(text: string, words: string[]): string {
  const re = new RegExp(words.map(wordPattern).join('|'), 'iu');
  const at = words.length ? (text.match(re)?.index ?? 0) : 0;
  let start = Math.max(0, at - SNIPPET / 3);
  let end = Math.min(text.length, start + SNIPPET);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(' ', end) > at ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '… ' : ''}${markWords(text.slice(start, end).trim(), words)}${end < text.length ? ' …' : ''}`;
}

/** The items in which every word occurs, best first (title hits count five times), with marked title and snippet. */
export function search<T extends Searchable>(items: T[], q: string): SearchHit<T>[] {
  const words = queryWords(q);
  if (!words.length) return [];
  const patterns = words.map((w) => new RegExp(wordPattern(w), 'giu'));
  // The words side by side as typed ("import code") count twice as much again: the section about that, first.
  const phrase = words.length > 1 ? new RegExp(words.map(wordPattern).join(JOINER), 'giu') : null;
  const count = (s: string, re: RegExp) => s.match(re)?.length ?? 0;
  const hits: SearchHit<T>[] = [];
  items.forEach((item) => {
    let score = 0;
    for (const re of patterns) {
      const inTitle = count(item.title, re);
      const inText = count(item.text, re);
      if (!inTitle && !inText) return;
      score += inTitle * 5 + inText;
    }
    if (phrase) score += 2 * (count(item.title, phrase) * 5 + count(item.text, phrase));
    hits.push({ item, score, titleHtml: markWords(item.title, words), snippetHtml: snippetOf(item.text, words) });
  });
  // Stable: equal scores keep the document's order.
  return hits.sort((a, b) => b.score - a.score);
}
