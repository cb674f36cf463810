// Markdown of the repository (release notes, the user guide, the FAQ) rendered to HTML for the help pages.
//
// markdown-it with `html: false`: raw HTML in a Markdown file is shown as text, never passed through, so a file
// cannot put a script or a style on a page even by mistake; its link check refuses javascript:, vbscript: and
// data: targets. linkify and typographer are off: what the file says is what the page shows.
//
// Headings get stable ids (slugs of their text, umlauts spelled out: "Import-Code" → "import-code",
// "Bestände" → "bestaende"), so a section can be linked from other help pages and from search results. A
// document is also cut into sections (one per heading, up to the next) with their plain text: what the search
// reads.
import MarkdownIt, { type Token } from 'markdown-it';


export interface Heading {
  /** 2–6 on the page (the document's `#` becomes an h2 with the default offset). */
  level: number;
  text: string;
  id: string;
}

export interface Section extends Heading {
  /** The section's plain text below its heading, up to the next heading (code blocks included). */
  text: string;
  title: string;
}

export interface RenderedMarkdown {
  html: string;
  headings: Heading[];
  sections: Section[];
  /** The plain text before the first heading (all of it in a document without headings). */
  intro: string;
}

export interface RenderOptions {
  /** Added to each heading's level: with 1 (the default), a document's `#` is an h2 below the page's h1. */
  headingOffset?: number;
  /** Ids already taken on the page: a repeated slug gets "-2", "-3" …; the set is updated. */
  usedIds?: Set<string>;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'ae', Ö: 'oe', Ü: 'ue' };

/** A heading's id: lower case, umlauts spelled out, other accents dropped, anything else a single hyphen. */
export function slugify(text: string): string {
  const slug = text
    .replace(/[äöüßÄÖÜ]/g, (c) => UMLAUTS[c])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'abschnitt';
}

/** base, or base-2, base-3 … if taken; marks it taken. */
export function uniqueId(base: string, used: Set<string>): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

/** An inline token's text without its markup (what a reader sees). */
function plainText(token: Token): string {
  if (!token.children) return token.content;
  return token.children
    .map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' || c.type === 'hardbreak' ? ' ' : ''))
    .join('');
}

/** Renders a Markdown document: its HTML, its headings with their ids, and its sections for the search. */
export function renderMarkdown(source: string, { headingOffset = 1, usedIds = new Set<string>() }: RenderOptions = {}): RenderedMarkdown {
  const tokens = md.parse(source, {});
  const headings: Heading[] = [];
  const sections: Section[] = [];
  let current: { heading: Heading; text: string[] } | null = null;
  const intro: string[] = [];
  const close = () => {
    if (current) sections.push({ ...current.heading, title: current.heading.text, text: current.text.join(' ').replace(/\s+/g, ' ').trim() });
  };
  tokens.forEach((token, i) => {
    // A wide table or code block scrolls in its own frame on a phone: focusable, so it scrolls by keyboard too
    // (on a fence the attribute lands on its <code>, inside the scrolling <pre>).
    if (token.type === 'table_open' || token.type === 'fence' || token.type === 'code_block') token.attrSet('tabindex', '0');
    if (token.type === 'heading_open' || token.type === 'heading_close') {
      const level = Math.min(6, Number(token.tag.slice(1)) + headingOffset);
      token.tag = `h${level}`;
      if (token.type === 'heading_open') {
        const text = plainText(tokens[i + 1]);
        const heading = { level, text, id: uniqueId(slugify(text), usedIds) };
        token.attrSet('id', heading.id);
        headings.push(heading);
        close();
        current = { heading, text: [] };
      }
      return;
    }
    // The heading's own inline token is its title, not part of its text.
    if (token.type === 'inline' && tokens[i - 1]?.type === 'heading_open') return;
    const text = token.type === 'inline' ? plainText(token) : token.type === 'fence' || token.type === 'code_block' ? token.content : '';
    if (text) (current ? current.text : intro).push(text);
  });
  close();
  return { html: md.renderer.render(tokens, md.options, {}), headings, sections, intro: intro.join(' ').replace(/\s+/g, ' ').trim() };
}
