// Help and release notes, pages that work without JavaScript:
//   GET /{lang}/benutzer/release-notes        the portal's changes per version, newest first
//   GET /{lang}/hilfe/dokumentation?q=…       the user guide with its contents; with q, the matching sections
//   GET /{lang}/hilfe/faq?q=…                 questions and answers as <details>; with q, the matching ones, open
//   GET /{lang}/hilfe/hilfevideos             the recorded flows with captions in both languages
//   GET /hilfevideos/<name>.webm|.webp|.<lang>.vtt  the recordings, posters, captions (hilfevideosStatic, before the session: no cookie)
// Every signed-in user with a tenant opens them (route tree: 'open'). The content is Markdown in the repository
// (content.ts), the search runs on the server (search.ts).
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { guardsFor } from '../../http/guards.js';
import type { Lang } from '../../http/i18n.js';
import { faq, guide, releaseNotes, type Guide } from './content.js';
import { SearchQuery } from './schema.js';
import { search } from './search.js';
import { recordedVideos, VIDEO_DIR, videoUrls } from './videos.js';

const RELEASE_NOTES = 'benutzer/release-notes';
const DOKUMENTATION = 'hilfe/dokumentation';
const FAQ = 'hilfe/faq';
const HILFEVIDEOS = 'hilfe/hilfevideos';

/** The guide's chapters each help page points to (file names below docs/hilfe/dokumentation/<lang>/). */
const CHAPTER_OF_PAGE = { faq: '00-ueberblick', hilfevideos: '00-ueberblick' } as const;

/** The address of a guide chapter (by its file name) in a language, or of the guide when there is no such chapter. */
export function chapterHref(lang: Lang, file: string): string {
  const chapter = guide(lang).chapters.find((c) => c.file === file);
  return `/${lang}/${DOKUMENTATION}${chapter ? `#${chapter.id}` : ''}`;
}

/** The search word from ?q=, or the translated reason it was refused (too long, repeated). */
function readQuery(req: Request): { q: string; error: string | null } {
  const parsed = SearchQuery.safeParse(req.query);
  if (parsed.success) return { q: parsed.data.q.trim(), error: null };
  const raw = req.query.q;
  return { q: typeof raw === 'string' ? raw.slice(0, 200) : '', error: req.t(parsed.error.issues[0]?.message ?? 'hilfe:suche.ungueltig') };
}

const langOf = (res: Response) => res.locals.lang as Lang;

export function hilfeRoutes(): Router {
  const router = Router({ mergeParams: true });

  router.get(`/${RELEASE_NOTES}`, ...guardsFor(RELEASE_NOTES, 'open'), async (req, res) => {
    const lang = langOf(res);
    await res.page('hilfe/release-notes', { title: req.t('nav.release-notes'), notes: releaseNotes(lang), guideHref: `/${lang}/${DOKUMENTATION}` });
  });

  router.get(`/${DOKUMENTATION}`, ...guardsFor(DOKUMENTATION, 'open'), async (req, res) => {
    const lang = langOf(res);
    const { q, error } = readQuery(req);
    const g: Guide = guide(lang);
    const hits = q && !error ? search(g.sections, q) : [];
    if (error) res.status(400);
    await res.page('hilfe/dokumentation', {
      title: req.t('nav.dokumentation'),
      guide: g,
      q,
      error,
      hits: hits.map((h) => ({ ...h, href: `/${lang}/${DOKUMENTATION}#${h.item.id}` })),
      action: `/${lang}/${DOKUMENTATION}`,
    });
  });

  router.get(`/${FAQ}`, ...guardsFor(FAQ, 'open'), async (req, res) => {
    const lang = langOf(res);
    const { q, error } = readQuery(req);
    const entries = faq(lang);
    const searching = Boolean(q) && !error;
    const hits = searching ? search(entries, q) : [];
    if (error) res.status(400);
    await res.page('hilfe/faq', {
      title: req.t('nav.faq'),
      q,
      error,
      searching,
      // Searching: the matching questions, best first and open, their words marked; else every question, closed.
      entries: searching
        ? hits.map((h) => ({ ...h.item, titleHtml: h.titleHtml, open: true }))
        : entries.map((e) => ({ ...e, titleHtml: null, open: false })),
      action: `/${lang}/${FAQ}`,
      guideHref: chapterHref(lang, CHAPTER_OF_PAGE.faq),
      guideSearchHref: q && !error ? `/${lang}/${DOKUMENTATION}?q=${encodeURIComponent(q)}` : null,
    });
  });

  router.get(`/${HILFEVIDEOS}`, ...guardsFor(HILFEVIDEOS, 'open'), async (req, res) => {
    const lang = langOf(res);
    await res.page('hilfe/hilfevideos', {
      title: req.t('nav.hilfevideos'),
      videos: recordedVideos().map((v) => ({
        ...v,
        urls: videoUrls(v),
        guideHref: chapterHref(lang, v.flow.chapter),
        seconds: Math.round(v.durationMs / 1000),
      })),
      guideHref: chapterHref(lang, CHAPTER_OF_PAGE.hilfevideos),
    });
  });

  return router;
}

const YEAR = 'public, max-age=31536000, immutable';

/**
 * The recordings and their captions. Their address carries the recording's hash (`?v=`, videos.ts): with the
 * current one a browser keeps the file for a year; without it (or with an old one) it asks again each time,
 * answered by ETag. Range requests work (a browser seeks in a video without loading all of it).
 */
export function hilfevideosStatic(): Router {
  const files = express.static(VIDEO_DIR, {
    index: false,
    dotfiles: 'deny',
    fallthrough: true,
    cacheControl: false,
    setHeaders(res, file) {
      if (file.endsWith('.vtt')) res.setHeader('Content-Type', 'text/vtt; charset=utf-8');
    },
  });
  const router = express.Router();
  router.use('/hilfevideos', (req, res, next) => {
    const m = /^\/([a-z0-9-]+)\.(webm|webp|de\.vtt|en\.vtt)$/.exec(req.path);
    if (!m || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const video = recordedVideos().find((v) => v.name === m[1]);
    if (!video) return next();
    res.setHeader('Cache-Control', req.query.v === video.hash ? YEAR : 'no-cache');
    files(req, res, next);
  });
  return router;
}
