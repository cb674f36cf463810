// The help content kept in the repository as Markdown, read once per process (it changes only with a release):
//
//   docs/release-notes/<lang>/<version>.md     one file per version, first line "# <version> (<YYYY-MM-DD>)"
//   docs/hilfe/dokumentation/<lang>/NN-*.md    the user guide, one chapter per file in file-name order
//   docs/hilfe/faq/<lang>.md                   the FAQ: each "## " heading a question, the text below its answer
//
// Every language has the same files (content.test.ts); anchors are the headings' slugs (markdown.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Lang } from '../../http/i18n.js';
import { ROOT } from '../../paths.js';
import { renderMarkdown, slugify, uniqueId, type Heading, type Section } from './markdown.js';

export const DOCS_DIR = path.join(ROOT, 'docs');
export const RELEASE_NOTES_DIR = path.join(DOCS_DIR, 'release-notes');
export const GUIDE_DIR = path.join(DOCS_DIR, 'hilfe', 'dokumentation');
export const FAQ_DIR = path.join(DOCS_DIR, 'hilfe', 'faq');

const read = (file: string) => readFileSync(file, 'utf8');
const markdownFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.md')).sort();

// Release notes ------------------------------------------------------------------------------------------------

export interface ReleaseNote {
  version: string;
  /** ISO date of the release. */
  date: string;
  /** The heading's id on the page ("version-1-6-0"). */
  id: string;
  html: string;
}

const RELEASE_HEADING = /^# (\d+\.\d+\.\d+) \((\d{4}-\d{2}-\d{2})\)[ \t]*\r?\n/;

/** Compares versions numerically (1.10.0 after 1.9.0). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

function loadReleaseNotes(lang: Lang): ReleaseNote[] {
  const dir = path.join(RELEASE_NOTES_DIR, lang);
  // One page: the versions' sub-headings ("Neu" in each) get ids unique across the page.
  const usedIds = new Set<string>();
  return markdownFiles(dir)
    .map((file) => {
      const source = read(path.join(dir, file));
      const head = RELEASE_HEADING.exec(source);
      if (!head || `${head[1]}.md` !== file) throw new Error(`${lang}/${file}: the first line must be "# ${file.replace(/\.md$/, '')} (YYYY-MM-DD)"`);
      // The version's heading is the page's (h2, with the date formatted per user); the file's "##" become h3.
      const id = uniqueId(`version-${slugify(head[1])}`, usedIds);
      const { html } = renderMarkdown(source.slice(head[0].length), { headingOffset: 1, usedIds });
      return { version: head[1], date: head[2], id, html };
    })
    .sort((a, b) => compareVersions(b.version, a.version));
}

// The user guide -------------------------------------------------------------------------------------------------

export interface GuideChapter {
  /** The file name without ".md" (the same in every language). */
  file: string;
  title: string;
  id: string;
  html: string;
  /** The chapter's sub-headings (h3), for the table of contents. */
  headings: Heading[];
}

export interface Guide {
  chapters: GuideChapter[];
  /** Every heading's section with its text: what the search reads. */
  sections: Section[];
}

function loadGuide(lang: Lang): Guide {
  const dir = path.join(GUIDE_DIR, lang);
  const usedIds = new Set<string>();
  const sections: Section[] = [];
  const chapters = markdownFiles(dir).map((file) => {
    const rendered = renderMarkdown(read(path.join(dir, file)), { headingOffset: 1, usedIds });
    const [top, ...rest] = rendered.headings;
    if (!top || top.level !== 2) throw new Error(`${lang}/${file}: a chapter starts with its "# " title`);
    sections.push(...rendered.sections);
    return { file: file.replace(/\.md$/, ''), title: top.text, id: top.id, html: rendered.html, headings: rest.filter((h) => h.level === 3) };
  });
  return { chapters, sections };
}

// The FAQ --------------------------------------------------------------------------------------------------------

export interface FaqEntry {
  id: string;
  /** The question (the search's title). */
  title: string;
  /** The answer as plain text (what the search reads). */
  text: string;
  answerHtml: string;
}

function loadFaq(lang: Lang): FaqEntry[] {
  const source = read(path.join(FAQ_DIR, `${lang}.md`));
  const usedIds = new Set<string>();
  // Each "## " line opens an entry; anything before the first (a title, a note for editors) is not shown.
  return source
    .split(/^(?=## )/m)
    .filter((part) => part.startsWith('## '))
    .map((part) => {
      const newline = part.indexOf('\n');
      const question = part.slice(3, newline < 0 ? undefined : newline).trim();
      const answer = renderMarkdown(newline < 0 ? '' : part.slice(newline + 1), { headingOffset: 2, usedIds: new Set() });
      return { id: `faq-${uniqueId(slugify(question), usedIds)}`, title: question, text: answer.intro, answerHtml: answer.html };
    });
}

// Cache ----------------------------------------------------------------------------------------------------------

const cache = new Map<string, unknown>();
function once<T>(key: string, load: () => T): T {
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as T;
}

export const releaseNotes = (lang: Lang): ReleaseNote[] => once(`release-notes:${lang}`, () => loadReleaseNotes(lang));
export const guide = (lang: Lang): Guide => once(`guide:${lang}`, () => loadGuide(lang));
export const faq = (lang: Lang): FaqEntry[] => once(`faq:${lang}`, () => loadFaq(lang));
