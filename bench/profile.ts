// Where a server's CPU goes: a V8 CPU profile (`node --cpu-prof`) summed by what owns each sample's function
// (self time): a package, a part of Node, the app's own folders, the views, garbage collection. Used by
// `npm run bench -- --profile` (bench/run.ts); the summaries before and after a change go in bench/README.md.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  owner: string;
  ms: number;
  /** Share of the busy time (all but idle), in percent. */
  percent: number;
}

export interface ProfileSummary {
  /** Sampled time the process was not idle, in ms. */
  busyMs: number;
  idleMs: number;
  shares: ProfileShare[];
}

/** Native functions that write to or read from sockets (their frames carry no URL). */
const SOCKET_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']);
const SOCKET_READS = new Set(['onStreamRead']);

/** The compiled server is one bundle: its frames are named by the source they were built from (its source map). */
const sourceMaps = new Map<string, SourceMap | null>();
function originalSource(url: string, line: number, column: number): string | null {
  if (!sourceMaps.has(url)) {
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    sourceMaps.set(url, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : null);
  }
  const entry = sourceMaps.get(url)?.findEntry(line, column) as { originalSource?: string } | undefined;
  return entry?.originalSource ?? null;
}

/** Who owns a frame: e.g. `ejs`, `knex`, `node:net`, `app: http`, `views`, `socket writes`, `garbage collection`. */
export function ownerOf(frame: ProfileNode['callFrame']): string {
  const { functionName, lineNumber, columnNumber } = frame;
  // EJS names a compiled view by its file, in quotes.
  let url = frame.url.replace(/^"(.*)"$/, '$1');
  if (url.includes('/dist/server/')) url = originalSource(frame.url, lineNumber, columnNumber) ?? url;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return '(program: V8 and native work without a JavaScript frame)';
  if (SOCKET_WRITES.has(functionName)) return 'socket writes (native)';
  if (SOCKET_READS.has(functionName)) return 'socket reads (native)';
  if (url.endsWith('.ejs') || functionName === 'anonymous' && !url) return 'views (compiled templates)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  const app = /\/dist\/server\/src\/([^/]+)\//.exec(url) ?? /\/src\/([^/]+)\//.exec(url);
  if (app && !url.startsWith('node:')) return `app: ${app[1]}`;
  if (url.startsWith('node:')) {
    const mod = url.slice(5).replace(/^internal\//, '').split('/')[0];
    return `node:${mod}`;
  }
  return url ? 'other JavaScript' : `native: ${functionName || '(anonymous)'}`;
}

/**
 * Self time per owner of a profile file, busy time only (idle excluded from the shares); with `window` (µs of the
 * system's monotonic clock, which V8's timestamps use on Linux, as process.hrtime does) only the samples taken in it.
 */
export function summarizeProfile(file: string, window?: [number, number], top = 18): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const owner = new Map(profile.nodes.map((n) => [n.id, ownerOf(n.callFrame)]));
  const byOwner = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window[0] || at > window[1])) return;
    const who = owner.get(id) ?? 'unknown';
    byOwner.set(who, (byOwner.get(who) ?? 0) + delta / 1000);
  });
  const idleMs = byOwner.get('idle') ?? 0;
  byOwner.delete('idle');
  const busyMs = [...byOwner.values()].reduce((a, b) => a + b, 0);
  const sorted = [...byOwner.entries()].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, top).map(([who, ms]) => ({ owner: who, ms: Math.round(ms), percent: Number(((100 * ms) / busyMs).toFixed(1)) }));
  const restMs = sorted.slice(top).reduce((a, [, ms]) => a + ms, 0);
  if (restMs > 0) shown.push({ owner: `${sorted.length - top} others`, ms: Math.round(restMs), percent: Number(((100 * restMs) / busyMs).toFixed(1)) });
  return { busyMs: Math.round(busyMs), idleMs: Math.round(idleMs), shares: shown };
}
