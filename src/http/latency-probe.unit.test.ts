// The benchmark's latency probe: it counts only the requests of the measured window, and its line says how long
// they took in the server.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { BENCH_WINDOW_HEADER, latencyProbe, type LatencyProbeLine } from './latency-probe.js';

function appWith(file: string) {
  const probe = latencyProbe(file);
  const app = express();
  app.use(probe.handler);
  app.get('/slow', (_req, res) => setTimeout(() => res.send('ok'), 30));
  // Holds the event loop for 40 ms, as a long render would.
  app.get('/busy', (_req, res) => {
    const until = performance.now() + 40;
    while (performance.now() < until);
    res.send('ok');
  });
  return { app, writeLine: probe.writeLine };
}

describe('latencyProbe', () => {
  it('counts the marked requests only, with the time each spent in the server', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'lines.jsonl');
    const { app, writeLine } = appWith(file);
    await request(app).get('/slow').expect(200); // the warm-up: not marked
    await request(app).get('/slow').set(BENCH_WINDOW_HEADER, '1').expect(200);
    await request(app).get('/slow').set(BENCH_WINDOW_HEADER, '1').expect(200);
    writeLine();
    const [line, ...more] = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LatencyProbeLine);
    expect(more).toEqual([]);
    expect(line.pid).toBe(process.pid);
    expect(line.requests).toBe(2);
    // Each answer waited for its 30-ms timer inside the server.
    expect(line.inServer.p50).toBeGreaterThanOrEqual(29);
    expect(line.inServer.p50).toBeLessThanOrEqual(line.inServer.p99);
    expect(line.inServer.p99).toBeLessThanOrEqual(line.inServer.max);
  });

  it('shows the event loop held up by a request that blocks it', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'lines.jsonl');
    const { app, writeLine } = appWith(file);
    await request(app).get('/slow').set(BENCH_WINDOW_HEADER, '1').expect(200);
    await request(app).get('/busy').set(BENCH_WINDOW_HEADER, '1').expect(200);
    await new Promise((resolve) => setTimeout(resolve, 20)); // a timer tick after the block, which reports it
    writeLine();
    const line = JSON.parse(readFileSync(file, 'utf8')) as LatencyProbeLine;
    expect(line.requests).toBe(2);
    // The 5-ms timer could not run for 40 ms: it ran at least 30 ms late once.
    expect(line.loopDelay.max).toBeGreaterThanOrEqual(30);
    expect(line.loopDelay.p50).toBeLessThanOrEqual(line.loopDelay.max);
  });

  it('writes nothing when no request was marked', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'lines.jsonl');
    const { app, writeLine } = appWith(file);
    await request(app).get('/slow').expect(200);
    writeLine();
    expect(existsSync(file)).toBe(false);
  });
});
