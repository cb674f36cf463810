// Help and release notes through HTTP against the real app: the release notes in both languages, newest first;
// the guide's search finds the import-code chapter ("Importcode" in German, "import code" in English) and links
// to anchors that exist on the page; the FAQ's search shows the matching questions open; the videos page lists
// each recording with its captions and loads nothing until played; the recordings are served with caching and
// ranges, without a cookie. Bad input (an overlong or repeated search) is a 400 with a translated message.
// The help is the same for every tenant and holds no tenant data: a NORD user sees the same pages.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn, type Agent } from '../../testing/session.js';
import { faq, guide, releaseNotes } from './content.js';
import { recordedVideos, VIDEO_FLOWS } from './videos.js';

let t: TestApp;
let user: Agent;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t.app, 'USER', 'User12345', 'DEMO');
});
afterAll(() => t.close());

const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('release notes', () => {
  it.each([
    ['de', 'Version 1.7.0', '26.11.2026', 'Zeilenbasierte Sicherheit'],
    ['en', 'Version 1.7.0', '26.11.2026', 'Row-level security'],
  ])('%s: every version newest first, with its date and its notes', async (lang, newest, date, rls) => {
    const res = await user.get(`/${lang}/benutzer/release-notes`).expect(200);
    const versions = [...res.text.matchAll(/<h2 id="version-[^"]+" class="card-title">([^<]+)</g)].map((m) => m[1].trim());
    expect(versions).toEqual(releaseNotes(lang as 'de').map((n) => `Version ${n.version}`));
    expect(versions[0]).toBe(newest);
    expect(versions.at(-1)).toBe('Version 1.0.0');
    expect(res.text).toContain(`<time datetime="2026-11-26">${date}</time>`);
    expect(text(res.text)).toContain(rls);
    expect(res.text).not.toContain('Diese Seite ist in Vorbereitung');
  });

  it('asks a visitor to sign in first', async () => {
    const res = await request(t.app).get('/de/benutzer/release-notes').expect(302);
    expect(res.headers.location).toBe('/de/login?redirect=%2Fde%2Fbenutzer%2Frelease-notes');
  });
});

describe('dokumentation', () => {
  it('shows the contents and every chapter, each linked by its anchor', async () => {
    const res = await user.get('/de/hilfe/dokumentation').expect(200);
    const anchors = ids(res.text);
    for (const c of guide('de').chapters) {
      expect(res.text).toContain(`<a href="#${c.id}">${c.title}</a>`);
      expect(anchors.has(c.id)).toBe(true);
      for (const h of c.headings) expect(anchors.has(h.id), h.id).toBe(true);
    }
    expect(res.text).not.toContain('Abschnitte enthalten');
  });

  it('finds "Importcode" in German: the import-code chapter first, linked to its anchor, the word marked', async () => {
    const res = await user.get('/de/hilfe/dokumentation?q=Importcode').expect(200);
    const hits = [...res.text.matchAll(/<li><a href="#([^"]+)">(.*?)<\/a>/g)].map((m) => ({ id: m[1], title: m[2] }));
    expect(hits[0]).toEqual({ id: 'import-code', title: '<mark>Import-Code</mark>' });
    expect(ids(res.text).has('import-code')).toBe(true);
    expect(hits.every((h) => ids(res.text).has(h.id))).toBe(true);
    expect(text(res.text)).toMatch(/\d+ Abschnitte enthalten „Importcode“/);
    expect(res.text).toContain('value="Importcode"');
  });

  it('finds "import code" and "importcode" in English, and the keywords section by a keyword', async () => {
    for (const q of ['import code', 'importcode']) {
      const res = await user.get(`/en/hilfe/dokumentation?q=${encodeURIComponent(q)}`).expect(200);
      const first = /<li><a href="#([^"]+)">(.*?)<\/a>/.exec(res.text);
      expect(first?.[1], q).toBe('import-code');
      expect(first?.[2], q).toBe(q === 'importcode' ? '<mark>Import code</mark>' : '<mark>Import</mark> <mark>code</mark>');
    }
    const res = await user.get('/en/hilfe/dokumentation?q=decimalcomma').expect(200);
    expect(res.text).toMatch(/<li><a href="#keywords">Keywords<\/a><p>.*<mark>decimalcomma<\/mark>/);
  });

  it('says when nothing is found, and never echoes the query as markup', async () => {
    const res = await user.get(`/de/hilfe/dokumentation?q=${encodeURIComponent('<script>x</script>')}`).expect(200);
    expect(res.text).not.toContain('<script>x');
    expect(text(res.text)).toContain('Kein Abschnitt enthält „&lt;script&gt;x&lt;/script&gt;“');
  });

  it.each([
    ['de', 'x'.repeat(201), 'Der Suchbegriff ist zu lang (höchstens 200 Zeichen).'],
    ['en', 'x'.repeat(201), 'The search term is too long (at most 200 characters).'],
  ])('%s: an overlong search is a 400 with the reason at the field and no results', async (lang, q, message) => {
    const res = await user.get(`/${lang}/hilfe/dokumentation?q=${q}`).expect(400);
    expect(res.text).toContain(message);
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).not.toMatch(/<section class="card hilfe-treffer"/);
  });

  it('a repeated q is a 400 too', async () => {
    const res = await user.get('/de/hilfe/dokumentation?q=a&q=b').expect(400);
    expect(res.text).toContain('Bitte geben Sie einen Suchbegriff ein.');
  });
});

describe('faq', () => {
  it('lists every question closed as <details>, with a link to the guide', async () => {
    const res = await user.get('/de/hilfe/faq').expect(200);
    const details = [...res.text.matchAll(/<details id="([^"]+)"\s*(open)?\s*>/g)];
    expect(details.map((d) => d[1])).toEqual(faq('de').map((e) => e.id));
    expect(details.every((d) => !d[2])).toBe(true);
    expect(res.text).toContain(`href="/de/hilfe/dokumentation#${guide('de').chapters[0].id}"`);
  });

  it('searching shows only the matching questions, open, the words marked, and offers the guide\'s search', async () => {
    const res = await user.get('/de/hilfe/faq?q=Importcode').expect(200);
    const details = [...res.text.matchAll(/<details id="([^"]+)"\s*(open)?\s*>\s*<summary>(.*?)<\/summary>/g)];
    expect(details.length).toBeGreaterThan(0);
    expect(details.length).toBeLessThan(faq('de').length);
    expect(details.every((d) => d[2] === 'open')).toBe(true);
    expect(details[0][3]).toContain('<mark>Import-Code</mark>');
    expect(text(res.text)).toMatch(/\d+ Fragen? enthalten? „Importcode“/);
    expect(res.text).toContain('href="/de/hilfe/dokumentation?q=Importcode"');
  });

  it('English: "second factor" finds the lost-phone question', async () => {
    const res = await user.get('/en/hilfe/faq?q=second+factor').expect(200);
    expect(text(res.text)).toContain('I lost the phone with my authenticator app.');
    expect(text(res.text)).not.toContain('Which formats can I export?');
  });

  it('no match: says so, lists no question', async () => {
    const res = await user.get('/de/hilfe/faq?q=Quantenphysik').expect(200);
    expect(text(res.text)).toContain('Keine Frage enthält „Quantenphysik“.');
    expect(res.text).not.toContain('<details id=');
  });
});

describe('hilfevideos', () => {
  it.each([['de'], ['en']])('%s: each recording with its captions, the page language first and on; nothing loads until played', async (lang) => {
    const res = await user.get(`/${lang}/hilfe/hilfevideos`).expect(200);
    const videos = recordedVideos();
    expect(videos.map((v) => v.name)).toEqual(VIDEO_FLOWS.map((f) => f.name));
    const other = lang === 'de' ? 'en' : 'de';
    for (const v of videos) {
      const block = res.text.slice(res.text.indexOf(`id="video-${v.name}"`), res.text.indexOf('</article>', res.text.indexOf(`id="video-${v.name}"`)));
      expect(block).toContain(`<video controls preload="none" width="${v.width}" height="${v.height}" poster="/hilfevideos/${v.name}.webp?v=${v.hash}"`);
      expect(block).toContain(`<source src="/hilfevideos/${v.name}.webm?v=${v.hash}" type="video/webm">`);
      expect(block).toMatch(new RegExp(`<track kind="captions" srclang="${lang}" label="[^"]+" src="/hilfevideos/${v.name}.${lang}.vtt\\?v=${v.hash}" default>`));
      expect(block).toMatch(new RegExp(`<track kind="captions" srclang="${other}" label="[^"]+" src="/hilfevideos/${v.name}.${other}.vtt\\?v=${v.hash}">`));
      // The steps as text (what the captions say) and the guide's chapter.
      expect(block.match(/<li>/g)).toHaveLength(v.flow.steps.length);
      const chapter = guide(lang as 'de').chapters.find((c) => c.file === v.flow.chapter)!;
      expect(block).toContain(`href="/${lang}/hilfe/dokumentation#${chapter.id}"`);
    }
    // No recording is fetched with the page (its poster and captions are a few KB): only when played.
    expect(res.text).not.toMatch(/preload="(auto|metadata)"/);
  });

  it('serves a recording without a cookie, cached for a year under its hash, with ranges; captions as text/vtt', async () => {
    const [v] = recordedVideos();
    const res = await request(t.app).get(`/hilfevideos/${v.name}.webm?v=${v.hash}`).expect(200);
    expect(res.headers['content-type']).toBe('video/webm');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(v.bytes);
    const part = await request(t.app).get(`/hilfevideos/${v.name}.webm?v=${v.hash}`).set('Range', 'bytes=0-3').expect(206);
    expect([...part.body]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    const stale = await request(t.app).get(`/hilfevideos/${v.name}.webm?v=000000000000`).expect(200);
    expect(stale.headers['cache-control']).toBe('no-cache');
    const poster = await request(t.app).get(`/hilfevideos/${v.name}.webp?v=${v.hash}`).expect(200);
    expect(poster.headers['content-type']).toBe('image/webp');
    const vtt = await request(t.app).get(`/hilfevideos/${v.name}.en.vtt?v=${v.hash}`).expect(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.text.startsWith('WEBVTT')).toBe(true);
  });

  it('serves nothing else from the folder', async () => {
    for (const path of ['/hilfevideos/manifest.json', '/hilfevideos/unbekannt.webm', '/hilfevideos/anmeldung.fr.vtt', '/hilfevideos/../package.json', '/hilfevideos/']) {
      const res = await request(t.app).get(path);
      expect(res.status, path).not.toBe(200);
    }
  });
});

describe('every tenant sees the same help', () => {
  it('a NORD user gets the same guide, FAQ and videos', async () => {
    const nord = await signIn(t.app, 'ADMIN', 'Admin12345', 'NORD');
    for (const path of ['/de/hilfe/dokumentation?q=Importcode', '/de/hilfe/faq', '/de/hilfe/hilfevideos', '/de/benutzer/release-notes']) {
      const [a, b] = await Promise.all([user.get(path), nord.get(path)]);
      expect(b.status, path).toBe(200);
      const main = (html: string) => html.slice(html.indexOf('<h1'), html.indexOf('</main>'));
      expect(main(b.text), path).toBe(main(a.text));
    }
  });
});
