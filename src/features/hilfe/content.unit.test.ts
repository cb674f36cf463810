// The help content in the repository, held to the product: every language has the same release notes, guide
// chapters and FAQ; the guide's import-code chapter lists exactly the keywords and fields the parser accepts,
// and its examples parse; each recorded video is a WebM of at most 2 MB with WebVTT captions in both languages
// whose cues are the flow's steps.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLUMN_WORDS, CONVERSION_WORDS, fieldsOf, parseDatePattern, parseMapping, type ImportTyp } from '../bewegungsdaten-import/mapping.js';
import { compareVersions, faq, FAQ_DIR, guide, GUIDE_DIR, releaseNotes, RELEASE_NOTES_DIR } from './content.js';
import { MAX_VIDEO_BYTES, recordedVideos, VIDEO_DIR, VIDEO_FLOWS } from './videos.js';

const LANGS = ['de', 'en'] as const;
const HEADINGS = {
  de: { keywords: 'Schlüsselwörter', dates: 'Datumsformate', fields: 'Felder', example: 'Beispiel' },
  en: { keywords: 'Keywords', dates: 'Date formats', fields: 'Fields', example: 'Example' },
};

const importChapter = (lang: string) => readFileSync(path.join(GUIDE_DIR, lang, '05-import.md'), 'utf8');

/** The lines of a chapter's section, from its heading (any level) to the next heading (a `#` in code is none). */
function section(markdown: string, title: string): string[] {
  const lines = markdown.split('\n');
  let fenced = false;
  const heading = lines.map((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /.test(l);
  });
  const start = lines.findIndex((l, i) => heading[i] && l.replace(/^#+ /, '') === title);
  if (start < 0) throw new Error(`no section "${title}"`);
  const end = lines.findIndex((_, i) => i > start && heading[i]);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The `code` words in one column of a section's table (header and separator rows left out). */
function tableColumn(lines: string[], column: number): string[][] {
  return lines
    .filter((l) => l.startsWith('|') && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) => l.replace(/\\\|/g, '¦').split('|').slice(1, -1)[column] ?? '')
    .map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

describe('every language has the same content', () => {
  it('release notes: the same versions with the same dates, newest first', () => {
    const [de, en] = LANGS.map((l) => releaseNotes(l));
    expect(de.map((n) => [n.version, n.date])).toEqual(en.map((n) => [n.version, n.date]));
    expect(de.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < de.length; i++) {
      expect(compareVersions(de[i - 1].version, de[i].version)).toBeGreaterThan(0);
      expect(de[i - 1].date >= de[i].date).toBe(true);
    }
    expect(readdirSync(path.join(RELEASE_NOTES_DIR, 'de'))).toEqual(readdirSync(path.join(RELEASE_NOTES_DIR, 'en')));
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
  });

  it('the guide: the same chapters, each with sub-sections; the FAQ: the same number of questions', () => {
    expect(readdirSync(path.join(GUIDE_DIR, 'de'))).toEqual(readdirSync(path.join(GUIDE_DIR, 'en')));
    const [de, en] = LANGS.map((l) => guide(l));
    expect(de.chapters.map((c) => c.file)).toEqual(en.chapters.map((c) => c.file));
    for (const g of [de, en]) for (const c of g.chapters) expect(c.headings.length, c.file).toBeGreaterThan(0);
    expect(faq('de').length).toBe(faq('en').length);
    expect(faq('de').length).toBeGreaterThanOrEqual(10);
    expect(readdirSync(FAQ_DIR).sort()).toEqual(['de.md', 'en.md']);
  });

  it('the guide covers what the issue asks for, in its chapters', () => {
    expect(guide('de').chapters.map((c) => c.title)).toEqual([
      'Überblick', 'Anmeldung und zweiter Faktor', 'Mandanten', 'Stammdaten', 'Bewegungsdaten', 'Import-Code',
      'Nachweise', 'Bilanzen', 'Reports', 'Berechtigungen',
    ]);
  });
});

describe.each(LANGS)('the import-code chapter (%s) and the parser', (lang) => {
  const md = importChapter(lang);

  it('lists every keyword the parser accepts, and no other', () => {
    const listed = tableColumn(section(md, HEADINGS[lang].keywords), 0).flat().map((w) => w.toLowerCase());
    const parser = [...COLUMN_WORDS, ...Object.keys(CONVERSION_WORDS)];
    expect([...listed].sort()).toEqual([...parser].sort());
  });

  it('its date placeholders are the parser\'s: each makes a valid pattern with the others', () => {
    const placeholders = tableColumn(section(md, HEADINGS[lang].dates), 0).flat();
    expect(placeholders.sort()).toEqual(['DD', 'JJ', 'JJJJ', 'MM', 'TT', 'YY', 'YYYY']);
    for (const p of placeholders) {
      const pattern = ['TT', 'DD'].includes(p) ? `${p}.MM.JJJJ` : p === 'MM' ? 'TT.MM.JJJJ' : `TT.MM.${p}`;
      expect(parseDatePattern(pattern), pattern).not.toBeNull();
    }
  });

  it('lists every field with its other names for both types, and marks the required ones', () => {
    const lines = section(md, HEADINGS[lang].fields);
    const rows = lines.filter((l) => l.startsWith('| `'));
    const cells = tableColumn(lines, 0).map((_, i) => ({
      ein: tableColumn(lines, 0)[i][0],
      ab: tableColumn(lines, 1)[i][0],
      aliases: tableColumn(lines, 2)[i],
      required: rows[i].split('|')[4].includes('✓'),
    }));
    for (const [typ, key] of [['einlieferungen', 'ein'], ['ablieferungen', 'ab']] as [ImportTyp, 'ein' | 'ab'][]) {
      expect(cells.map((c) => ({ name: c[key], aliases: [...c.aliases].sort(), required: c.required }))).toEqual(
        fieldsOf(typ).map((f) => ({ name: f.name, aliases: [...f.aliases].sort(), required: f.required })),
      );
    }
  });

  it('its examples are valid import codes', () => {
    const blocks = section(md, HEADINGS[lang].example).join('\n').split('```').filter((_, i) => i % 2 === 1);
    expect(blocks).toHaveLength(2);
    for (const code of blocks) expect(parseMapping(code, 'einlieferungen').errors).toEqual([]);
  });
});

describe('the recorded help videos', () => {
  const videos = recordedVideos();
  const locales = Object.fromEntries(LANGS.map((l) => [l, JSON.parse(readFileSync(path.join(VIDEO_DIR, '..', '..', 'locales', l, 'hilfe.json'), 'utf8'))]));

  it('every flow is recorded, and nothing else lies in the folder', () => {
    expect(videos.map((v) => v.name)).toEqual(VIDEO_FLOWS.map((f) => f.name));
    const expected = VIDEO_FLOWS.flatMap((f) => [`${f.name}.webm`, `${f.name}.webp`, `${f.name}.de.vtt`, `${f.name}.en.vtt`]);
    expect(readdirSync(VIDEO_DIR).sort()).toEqual([...expected, 'manifest.json'].sort());
  });

  it.each(VIDEO_FLOWS.map((f) => f.name))('%s: a WebM of at most 2 MB, as the manifest says, with captions in both languages', (name) => {
    const video = videos.find((v) => v.name === name)!;
    const file = path.join(VIDEO_DIR, `${name}.webm`);
    const bytes = readFileSync(file);
    expect(statSync(file).size).toBe(video.bytes);
    expect(bytes.length).toBeLessThanOrEqual(MAX_VIDEO_BYTES);
    // EBML magic, and the document type "webm" in the header.
    expect([...bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    expect(bytes.subarray(0, 64).includes(Buffer.from('webm'))).toBe(true);
    // The poster: a small WebP (RIFF….WEBP), the only part of a video the page loads before it is played.
    const poster = readFileSync(path.join(VIDEO_DIR, `${name}.webp`));
    expect(poster.subarray(0, 4).toString()).toBe('RIFF');
    expect(poster.subarray(8, 12).toString()).toBe('WEBP');
    expect(poster.length).toBeLessThanOrEqual(20 * 1024);
    const flow = VIDEO_FLOWS.find((f) => f.name === name)!;
    expect(video.cues.map((c) => c.step)).toEqual(flow.steps);
    for (const lang of LANGS) {
      const vtt = readFileSync(path.join(VIDEO_DIR, `${name}.${lang}.vtt`), 'utf8');
      expect(vtt.startsWith('WEBVTT')).toBe(true);
      const cues = [...vtt.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)$/gm)];
      // One cue per step, in order, with the page's text of that step.
      expect(cues.map((c) => c[3])).toEqual(flow.steps.map((s) => locales[lang].videos[name].steps[s]));
      expect(cues.every((c) => c[1] < c[2])).toBe(true);
      expect(locales[lang].videos[name].title).toBeTruthy();
      expect(locales[lang].videos[name].description).toBeTruthy();
    }
  });
});
