// The server `listen` serves the app from (src/server.ts): requests and responses made with the app's prototypes, so
// that two requests at the same point of the chain share their hidden class (what V8 does otherwise is why).
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, serverFor } from './server.js';

// V8's own comparison, parsed after the flag that allows it: true when both objects have the same hidden class.
v8.setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

type Held = { req: express.Request; res: express.Response };

/** An app whose middleware add properties as the real chain's do, holding each request at its last handler. */
function holdingApp(held: Held[], arrived: () => void) {
  const app = express();
  (app.response as unknown as { greet(this: express.Response): void }).greet = function greet(this: express.Response) {
    this.send(`hello ${String((this.req as unknown as { who: string }).who)}`);
  };
  app.use((req, res, next) => {
    Object.assign(req, { who: 'you', lang: 'de', t: (k: string) => k });
    res.locals.lang = 'de';
    next();
  });
  app.get('/', (req, res) => {
    held.push({ req, res });
    arrived();
  });
  return app;
}

const servers: Server[] = [];
afterEach(async () => {
  // Connections still held (a failed assertion leaves requests unanswered) are cut, so the test fails at once.
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  })));
});

describe('the server of the app', () => {
  it('gives two requests at the same point of the chain one hidden class, and the app its prototypes', async () => {
    const held: Held[] = [];
    let bothHeld!: () => void;
    const arrivedTwice = new Promise<void>((resolve) => (bothHeld = resolve));
    const app = holdingApp(held, () => held.length === 2 && bothHeld());
    const server = serverFor(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    // Both in flight at once, so that neither has moved on (answered, finished) when they are compared.
    const answers = [fetch(url), fetch(url)];
    await arrivedTwice;
    const [a, b] = held;
    expect(sameHiddenClass(a.req, b.req)).toBe(true);
    expect(sameHiddenClass(a.res, b.res)).toBe(true);
    expect(Object.getPrototypeOf(a.req)).toBe(app.request);
    expect(Object.getPrototypeOf(a.res)).toBe(app.response);
    expect(a.req.app).toBe(app);

    // What the app put on its prototypes before still answers.
    for (const h of held) (h.res as unknown as { greet(): void }).greet();
    const texts = await Promise.all(answers.map(async (r) => (await r).text()));
    expect(texts).toEqual(['hello you', 'hello you']);
  });

  it('listen serves the app from such a server, and refuses a port in use with the error instead of crashing', async () => {
    const options = { port: 0, drainTimeoutMs: 1_000, onClose: async () => {}, signals: [] };
    const app = express();
    // Made by the server's subclass of Node's class (not by Node's own, reshaped by Express afterwards).
    app.get('/', (req, res) => {
      res.send(req instanceof http.IncomingMessage && req.constructor !== http.IncomingMessage && res.constructor !== http.ServerResponse ? 'own classes' : 'reshaped');
    });
    const server = await listen(app, options);
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('own classes');

    await expect(listen(express(), { ...options, port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
