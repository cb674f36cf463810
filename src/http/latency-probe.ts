// Where a request's time goes inside the server, for the benchmark's --load (BENCH_LATENCY_PROBE=<file>, see
// bench/README.md). Off by default, and then nothing of it is installed.
//
// The load generator sees a request's whole latency: the time its bytes wait in the socket until the event loop
// reads them, then the server's handling. This probe measures the second part, from the first middleware to the
// answer handed to the socket, and how late the event loop runs (perf_hooks' monitorEventLoopDelay), only for
// requests marked with X-Bench-Window (the measured window, not the warm-up). When the process exits (the drain
// after SIGTERM), it appends one JSON line per worker to the file.
import { appendFileSync } from 'node:fs';
import { createHistogram, monitorEventLoopDelay, type RecordableHistogram } from 'node:perf_hooks';
import type { RequestHandler } from 'express';

/** The header that marks a request of the measured window. */
export const BENCH_WINDOW_HEADER = 'x-bench-window';

export interface Spread {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** One worker's line in the probe's file; milliseconds. */
export interface LatencyProbeLine {
  pid: number;
  requests: number;
  /** From the first middleware to the answer handed to the socket. */
  inServer: Spread;
  /** How late a 5-ms timer ran, sampled while the window's requests came in. */
  loopDelay: Spread;
}

const LOOP_RESOLUTION_MS = 5;

function spreadOf(h: { mean: number; max: number; percentile(p: number): number }): Spread {
  const ms = (ns: number) => Number((ns / 1e6).toFixed(2));
  return { mean: ms(h.mean), p50: ms(h.percentile(50)), p90: ms(h.percentile(90)), p99: ms(h.percentile(99)), max: ms(h.max) };
}

/** The probe's middleware, and what it appends to the file when the process exits (nothing before a marked request). */
export function latencyProbe(file: string): { handler: RequestHandler; writeLine: () => void } {
  const inServer: RecordableHistogram = createHistogram();
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  let started = false;
  const writeLine = () => {
    if (!started) return;
    loopDelay.disable();
    const line: LatencyProbeLine = { pid: process.pid, requests: inServer.count, inServer: spreadOf(inServer), loopDelay: spreadOf(loopDelay) };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  const handler: RequestHandler = (req, res, next) => {
    if (req.headers[BENCH_WINDOW_HEADER] === undefined) return next();
    if (!started) {
      started = true;
      loopDelay.enable();
    }
    const t0 = process.hrtime.bigint();
    res.once('finish', () => inServer.record(Math.max(1, Number(process.hrtime.bigint() - t0))));
    next();
  };
  return { handler, writeLine };
}

export function probeLatency(file: string): RequestHandler {
  const probe = latencyProbe(file);
  process.once('exit', probe.writeLine);
  return probe.handler;
}
