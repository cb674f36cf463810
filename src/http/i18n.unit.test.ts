// The per-language translators: remembered translations must be exactly what i18next answers, per language,
// with options as with none; and a request switched to another language translates in that one.
import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { i18n } from 'i18next';
import { createI18n, setUpI18n, useLanguage } from './i18n.js';

let root: i18n;
beforeAll(async () => {
  root = await createI18n();
});

function app() {
  const a = express();
  a.use(setUpI18n(root));
  a.get(/.*/, (req, res) => {
    const first = [
      req.t('pagination.page', { page: 2 }), req.t('pagination.page', { page: 3 }), req.t('pagination.page', { page: 2 }),
      req.t('nachrichten:header.label', { count: 0 }), req.t('nachrichten:header.label', { count: 1 }), req.t('nachrichten:header.label', { count: 7 }),
      req.t('list.totals', { caption: 'Einlieferungen' }), typeof req.t('pagination', { returnObjects: true }),
    ];
    const language = req.language;
    if (req.query.switch === 'en') useLanguage(req, res, 'en');
    res.json({ first, language, after: req.t('pagination.page', { page: 2 }), header: res.getHeader('content-language'), switched: req.language });
  });
  return a;
}

describe('per-language translators', () => {
  it('answer what i18next answers, options and plurals included, however often asked', async () => {
    for (const [path, lang] of [['/de/x', 'de'], ['/en/x', 'en']] as const) {
      const fixed = root.getFixedT(lang);
      const expected = [
        fixed('pagination.page', { page: 2 }), fixed('pagination.page', { page: 3 }), fixed('pagination.page', { page: 2 }),
        fixed('nachrichten:header.label', { count: 0 }), fixed('nachrichten:header.label', { count: 1 }), fixed('nachrichten:header.label', { count: 7 }),
        fixed('list.totals', { caption: 'Einlieferungen' }), 'object',
      ];
      for (let i = 0; i < 3; i++) {
        const res = await request(app()).get(path);
        expect(res.body.first).toEqual(expected);
        expect(res.body.language).toBe(lang);
        expect(res.headers['content-language']).toBe(lang);
      }
    }
    const de = await request(app()).get('/de/x');
    expect(de.body.first.slice(0, 2)).toEqual(['Seite 2', 'Seite 3']);
    expect(de.body.first[5]).toBe('7 ungelesene Nachrichten');
  });

  it('take the language of Accept-Language where the path names none, German without either', async () => {
    expect((await request(app()).get('/api/x').set('Accept-Language', 'fr, en;q=0.5')).body.language).toBe('en');
    expect((await request(app()).get('/api/x')).body.language).toBe('de');
  });

  it('switch one request to another language without touching the next one', async () => {
    const switched = await request(app()).get('/de/x?switch=en');
    expect(switched.body).toMatchObject({ language: 'de', switched: 'en', after: 'Page 2', header: 'en' });
    const next = await request(app()).get('/de/x');
    expect(next.body).toMatchObject({ switched: 'de', after: 'Seite 2' });
  });

  it('refuse to switch a shared instance', async () => {
    const a = express();
    a.use(setUpI18n(root));
    a.get('/x', (req, res) => {
      let refused = false;
      try {
        void req.i18n.changeLanguage('en');
      } catch {
        refused = true;
      }
      res.json({ refused, t: req.t('pagination.page', { page: 1 }) });
    });
    expect((await request(a).get('/x')).body).toEqual({ refused: true, t: 'Seite 1' });
  });
});
