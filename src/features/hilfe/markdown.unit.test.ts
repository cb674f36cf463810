// The Markdown renderer and the help search, without a server: raw HTML and script links in a file come out as
// text, headings get stable ids, and the search finds words however they are hyphenated or spelled with umlauts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, slugify } from './markdown.js';
import { markWords, queryWords, search, snippetOf } from './search.js';

describe('renderMarkdown', () => {
  it('escapes raw HTML: a <script> in the Markdown is text on the page, never an element', () => {
    const { html } = renderMarkdown('# Titel\n\n<script>alert("x")</script>\n\nText mit <b onclick="x()">HTML</b> und <img src=x onerror=alert(1)>.');
    expect(html).not.toMatch(/<script|<b\b|<img/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;b onclick=&quot;x()&quot;&gt;HTML&lt;/b&gt;');
  });

  it('refuses script links and does not turn bare addresses into links', () => {
    const { html } = renderMarkdown('[klick](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) https://example.org [gut](https://example.org/a)');
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('<a href="https://example.org/a">gut</a>');
  });

  it('gives headings stable ids from their text, one level below the page title, unique on the page', () => {
    const used = new Set<string>();
    const a = renderMarkdown('# Import-Code\n\n## Schlüsselwörter\n\nx\n\n## Bestände\n', { usedIds: used });
    const b = renderMarkdown('# Überblick\n\n## Schlüsselwörter\n', { usedIds: used });
    expect(a.headings).toEqual([
      { level: 2, text: 'Import-Code', id: 'import-code' },
      { level: 3, text: 'Schlüsselwörter', id: 'schluesselwoerter' },
      { level: 3, text: 'Bestände', id: 'bestaende' },
    ]);
    expect(b.headings.map((h) => h.id)).toEqual(['ueberblick', 'schluesselwoerter-2']);
    expect(a.html).toContain('<h2 id="import-code">Import-Code</h2>');
    expect(a.html).toContain('<h3 id="schluesselwoerter">');
  });

  it('cuts a document into sections with their plain text, code blocks included', () => {
    const { sections, intro } = renderMarkdown('Vorwort\n\n# Eins\n\nText **fett** und `code`.\n\n```\nnr = Spalte "A"\n```\n\n## Zwei\n\n- Punkt\n');
    expect(intro).toBe('Vorwort');
    expect(sections.map((s) => [s.id, s.title, s.text])).toEqual([
      ['eins', 'Eins', 'Text fett und code. nr = Spalte "A"'],
      ['zwei', 'Zwei', 'Punkt'],
    ]);
  });

  it('slugs are lower-case letters, digits and single hyphens, never empty', () => {
    expect(slugify('Was ist „vorläufig“? (PoS)')).toBe('was-ist-vorlaeufig-pos');
    expect(slugify('Größe & Maß')).toBe('groesse-mass');
    expect(slugify('***')).toBe('abschnitt');
    fc.assert(fc.property(fc.string(), (s) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slugify(s))));
  });
});

describe('search', () => {
  const items = [
    { id: 'import-code', title: 'Import-Code', text: 'Ein Import-Code sagt, welche Spalte welches Feld füllt.' },
    { id: 'bestaende', title: 'Bestände', text: 'Den Tagesbestand je Standort erfassen.' },
    { id: 'anmelden', title: 'Anmelden', text: 'Mit Passwort und dem Code der App. Der Import ist anderswo.' },
  ];

  it('finds "Importcode" in "Import-Code", title hits first, the words marked', () => {
    const hits = search(items, 'Importcode');
    expect(hits.map((h) => h.item.id)).toEqual(['import-code']);
    expect(hits[0].titleHtml).toBe('<mark>Import-Code</mark>');
    expect(hits[0].snippetHtml).toContain('Ein <mark>Import-Code</mark> sagt');
  });

  it('needs every word; case, hyphens, spaces and umlauts do not matter', () => {
    expect(search(items, 'import code').map((h) => h.item.id)).toEqual(['import-code', 'anmelden']);
    expect(search(items, 'IMPORT-CODE spalte').map((h) => h.item.id)).toEqual(['import-code']);
    expect(search(items, 'Bestande').map((h) => h.item.id)).toEqual(['bestaende']);
    expect(search(items, 'bestaende').map((h) => h.item.id)).toEqual(['bestaende']);
    expect(search(items, 'tankstelle')).toEqual([]);
    expect(search(items, ' ')).toEqual([]);
  });

  it('escapes what it shows: a query or text with HTML never becomes markup', () => {
    expect(markWords('a <b> & "c"', ['b'])).toBe('a &lt;<mark>b</mark>&gt; &amp; &quot;c&quot;');
    const hits = search([{ id: 'x', title: '<script>', text: 'x' }], '<script>');
    expect(hits[0].titleHtml).toBe('&lt;<mark>script</mark>&gt;');
    // Query words are text, not patterns: "a.b" does not match "axb".
    expect(queryWords('a (b) [regex.*] "c d"')).toEqual(['regex']);
    expect(search([{ id: 'x', title: 'axb', text: 'a.b' }], 'a.b').map((h) => h.titleHtml)).toEqual(['axb']);
  });

  it('a snippet is a short window around the first hit, cut at spaces', () => {
    const text = `${'Anfang '.repeat(40)}hier steht das Wort Nachweis mitten drin ${'Ende '.repeat(60)}`;
    const s = snippetOf(text, ['nachweis']);
    expect(s.startsWith('… ')).toBe(true);
    expect(s.endsWith(' …')).toBe(true);
    expect(s).toContain('<mark>Nachweis</mark>');
    expect(s.replace(/<\/?mark>/g, '').length).toBeLessThan(220);
  });

  it('never throws and only ever marks what the text contains (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 300 }), (q, text) => {
        const hits = search([{ id: 'a', title: 'T', text }], q);
        for (const h of hits) expect(h.snippetHtml.replace(/<\/?mark>/g, '')).not.toMatch(/<|>/);
      }),
    );
  });
});
