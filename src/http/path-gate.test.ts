// The feature routers behind their path gates (src/http/path-gate.ts): which router a request reaches is the
// same as without the gates, and every feature's router is narrow enough for its gate to skip it.
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn } from '../testing/session.js';
import { admits, gated, leadingSegments, pathGate, routePrefixes, type Prefixes } from './path-gate.js';

const asObject = (p: Prefixes | null) => p && Object.fromEntries([...p].map(([k, v]) => [k, v && [...v].sort()]));

describe('routePrefixes', () => {
  it('collects the literal first two segments of every route, lower-cased, and of routers mounted without a path', () => {
    const nested = express.Router();
    nested.get('/tankstelle/:nr', () => {});
    const r = express.Router();
    r.get('/bewegungsdaten/einlieferungen', () => {});
    r.post('/Bewegungsdaten/einlieferungen/:id', () => {});
    r.get(['/stammdaten/produkte', '/api-keys'], () => {});
    r.use('/berichte', () => {});
    r.get('/', () => {});
    r.use(nested);
    const inner = express.Router();
    inner.get('/hilfe/faq', () => {});
    r.use(pathGate(inner));
    expect(asObject(routePrefixes(r))).toEqual({
      '': null,
      'api-keys': null,
      berichte: null,
      bewegungsdaten: ['einlieferungen'],
      hilfe: ['faq'],
      stammdaten: ['produkte'],
      tankstelle: null,
    });
    r.get('/bewegungsdaten/:id/x', () => {});
    expect(asObject(routePrefixes(r))!.bewegungsdaten).toBeNull();
  });

  it('is null (never skipped) when a layer could match any first segment', () => {
    const cases: ((r: express.Router) => void)[] = [
      (r) => r.use(() => {}),
      (r) => r.get('/:lang/x', () => {}),
      (r) => r.get('/{de}/x', () => {}),
      (r) => r.get('/*rest', () => {}),
      (r) => r.get(/^\/bewegungsdaten/, () => {}),
    ];
    for (const add of cases) {
      const r = express.Router();
      r.get('/bewegungsdaten', () => {});
      add(r);
      expect(routePrefixes(r)).toBeNull();
    }
    expect(routePrefixes({} as express.Router)).toBeNull();
  });

  it('reads a request path as Express matches it: case-insensitive, undecoded, up to the query', () => {
    expect(leadingSegments('/Bewegungsdaten/Einlieferungen?page=2')).toEqual(['bewegungsdaten', 'einlieferungen']);
    expect(leadingSegments('/bewegungsdaten/einlieferungen/EL-1/bearbeiten')).toEqual(['bewegungsdaten', 'einlieferungen']);
    expect(leadingSegments('/stammdaten')).toEqual(['stammdaten', '']);
    expect(leadingSegments('/stammdaten/')).toEqual(['stammdaten', '']);
    expect(leadingSegments('/?q=1')).toEqual(['', '']);
    expect(leadingSegments('/b%C3%BCro/x')).toEqual(['b%c3%bcro', 'x']);
    const r = express.Router();
    r.get('/bewegungsdaten/einlieferungen/:id', () => {});
    r.use('/berichte', () => {});
    const p = routePrefixes(r)!;
    expect(admits(p, '/Bewegungsdaten/einlieferungen/EL-1')).toBe(true);
    expect(admits(p, '/bewegungsdaten/ablieferungen/AL-1')).toBe(false);
    expect(admits(p, '/berichte/irgendwas?x=1')).toBe(true);
    expect(admits(p, '/stammdaten/produkte')).toBe(false);
  });
});

describe('gated: several routers as one handler', () => {
  /** An app with three feature routers behind one gated(); `entered` records which routers a request entered. */
  function appWith() {
    const entered: string[] = [];
    const enter = (name: string): express.RequestHandler => (_req, _res, next) => {
      entered.push(name);
      next();
    };
    const a = express.Router();
    a.use('/bewegungsdaten/einlieferungen', enter('a'));
    a.get('/bewegungsdaten/einlieferungen/:nr', (req, res, next) => (['weiter', 'route', 'kaputt'].includes(req.params.nr) ? next() : res.send(`a ${req.params.nr}`)));
    const b = express.Router();
    b.use('/bewegungsdaten', enter('b'));
    b.get('/bewegungsdaten/einlieferungen/:nr', (req, res, next) => (req.params.nr === 'kaputt' ? next(new Error('b broke')) : req.params.nr === 'route' ? next('route') : res.send(`b ${req.params.nr}`)));
    b.get('/bewegungsdaten/ablieferungen', (_req, res) => res.send('b ablieferungen'));
    const c = express.Router();
    c.use('/stammdaten', enter('c'));
    c.get('/stammdaten/produkte', (_req, res) => res.send('c produkte'));
    const app = express();
    const lang = express.Router({ mergeParams: true });
    lang.use(gated(a, b, c));
    lang.use((req, res) => res.status(404).send(`none for ${req.params.lang}`));
    app.use('/:lang', lang);
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).send(err.message));
    return { app, entered };
  }

  it('enters only the routers whose routes could match, in their order, each after the one before passed on', async () => {
    const { app, entered } = appWith();
    const first = await request(app).get('/de/bewegungsdaten/einlieferungen/EL-1');
    expect([first.status, first.text, entered.splice(0)]).toEqual([200, 'a EL-1', ['a']]);
    const passed = await request(app).get('/de/Bewegungsdaten/Einlieferungen/weiter');
    expect([passed.status, passed.text, entered.splice(0)]).toEqual([200, 'b weiter', ['a', 'b']]);
    const second = await request(app).get('/de/bewegungsdaten/ablieferungen');
    expect([second.status, second.text, entered.splice(0)]).toEqual([200, 'b ablieferungen', ['b']]);
    const third = await request(app).get('/en/stammdaten/produkte?x=1');
    expect([third.status, third.text, entered.splice(0)]).toEqual([200, 'c produkte', ['c']]);
  });

  it('passes what none answers on with the outer parameters, an error straight to the error handler', async () => {
    const { app, entered } = appWith();
    const none = await request(app).get('/en/berichte/x');
    expect([none.status, none.text, entered.splice(0)]).toEqual([404, 'none for en', []]);
    const unanswered = await request(app).get('/de/stammdaten/partner');
    expect([unanswered.status, unanswered.text, entered.splice(0)]).toEqual([404, 'none for de', ['c']]);
    const route = await request(app).get('/de/bewegungsdaten/einlieferungen/route');
    expect([route.status, route.text, entered.splice(0)]).toEqual([404, 'none for de', ['a', 'b']]);
    const broken = await request(app).get('/de/bewegungsdaten/einlieferungen/kaputt');
    expect([broken.status, broken.text, entered.splice(0)]).toEqual([500, 'b broke', ['a', 'b']]);
  });

  it('tells routePrefixes what its routers hold, when mounted inside another router', () => {
    const a = express.Router();
    a.get('/bewegungsdaten/einlieferungen', () => {});
    const b = express.Router();
    b.get('/hilfe/faq', () => {});
    const outer = express.Router();
    outer.use(gated(a, b));
    expect(asObject(routePrefixes(outer))).toEqual({ bewegungsdaten: ['einlieferungen'], hilfe: ['faq'] });
    const any = express.Router();
    any.use(() => {});
    outer.use(gated(any));
    expect(routePrefixes(outer)).toBeNull();
  });
});

describe('the app behind its gates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Every gate in the app's router tree, with what it lets in. */
  function gates(stack: { handle: unknown }[], found: (Prefixes | null)[] = []) {
    for (const layer of stack) {
      const handle = layer.handle as { gated?: express.Router[]; stack?: { handle: unknown }[] };
      if (handle.gated) found.push(...handle.gated.map((router) => routePrefixes(router)));
      else if (handle.stack) gates(handle.stack, found);
    }
    return found;
  }

  it('puts every feature router behind a gate that can skip it: a list page enters two of some sixty', () => {
    const all = gates((t.app as unknown as { router: { stack: { handle: unknown }[] } }).router.stack);
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((p) => p === null)).toEqual([]);
    // The Einlieferungen router, and the route tree's placeholders at the end.
    expect(all.filter((p) => admits(p!, '/bewegungsdaten/einlieferungen?page=50'))).toHaveLength(2);
  });

  it('answers as Express matches routes: any case, unknown paths 404 with the page, every feature reachable', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const list = await agent.get('/de/bewegungsdaten/einlieferungen');
    expect(list.status).toBe(200);
    expect(list.text).toContain('<h1');
    const upper = await agent.get('/de/Bewegungsdaten/EINLIEFERUNGEN');
    expect(upper.status).toBe(200);
    expect(upper.text).toContain('EL-');
    const unknown = await agent.get('/de/bewegungsdaten/gibtsnicht');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('<h1');
    // One page of each kind of router: the shell, a record list, an import, a report, the help, the public display.
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    for (const path of ['/de/benutzer/dashboard', '/de/stammdaten/produkte', '/de/stammdaten/import', '/de/reports/liste', '/de/hilfe/faq', '/de/thg-anzeige/demo-thg-anzeige']) {
      expect((await admin.get(path)).status, path).toBe(200);
    }
    const api = await agent.get('/api/Einlieferungen?pageSize=1').set('X-Mandant', 'DEMO');
    expect(api.status).toBe(200);
    expect(api.body.data).toHaveLength(1);
  });
});
