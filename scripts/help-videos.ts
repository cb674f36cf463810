// `npm run help:videos`: records the help videos from the product itself, so they stay true when the UI changes.
//
// Starts the app on a fresh embedded database with the demo data (a temporary folder, port chosen by the
// system), drives Chromium (/usr/bin/chromium or CHROMIUM_PATH, playwright-core) through each flow of
// VIDEO_FLOWS (src/features/hilfe/videos.ts) and records it as WebM with captions in German and English:
//
//   public/hilfevideos/<name>.webm        VP9, 5 frames a second, 800 × 500, no sound (≤ 2 MB, checked here)
//   public/hilfevideos/<name>.webp        the poster: one frame of the flow's poster step, 480 px wide
//   public/hilfevideos/<name>.de.vtt      one cue per step, timed by the script's own steps
//   public/hilfevideos/<name>.en.vtt
//   public/hilfevideos/manifest.json      what the page lists: sizes, duration, hash, the steps' times
//
// How it records: Playwright's recordVideo needs an ffmpeg that Playwright downloads from its own CDN, which is
// not reachable everywhere (the npm registry is). So the frames come from Chromium itself over the DevTools
// protocol (Page.startScreencast, JPEG), are laid on a steady 5 fps timeline (the last frame repeats while the
// page is still), and are encoded by the ffmpeg binary of the npm package @ffmpeg-installer/ffmpeg (or FFMPEG_PATH).
// The step texts are the page's texts (locales/<lang>/hilfe.json, videos.<name>.steps): the captions and the
// page's description cannot drift apart.
//
// Usage: npm run help:videos [-- name …]   (only the flows named; the others stay as they are in the manifest)
//        npm run help:videos -- --posters  (only the posters again, from the recordings as they are)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const WIDTH = 800;
const HEIGHT = 500;
const FPS = 5;
/** How long a step's caption stays before the next action, so it can be read. */
const READ_MS = 2200;

type Lang = 'de' | 'en';
interface Cue {
  step: string;
  startMs: number;
  endMs: number;
}

function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  const bin = path.join(ROOT, 'node_modules', '@ffmpeg-installer', `${process.platform}-${process.arch}`, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
  if (!existsSync(bin)) throw new Error(`No ffmpeg at ${bin}: npm install, or set FFMPEG_PATH`);
  // The package's postinstall (chmod) does not run where install scripts are not allowed.
  if (!(statSync(bin).mode & 0o100)) chmodSync(bin, 0o755);
  return bin;
}

// Recording ------------------------------------------------------------------------------------------------------

/** A screencast of one page: JPEG frames with their time, and the steps' marks on the same clock. */
class Recorder {
  private frames: { at: number; data: Buffer }[] = [];
  private marks: { step: string; at: number }[] = [];
  private started = 0;
  private stopped = 0;
  private session: Awaited<ReturnType<BrowserContext['newCDPSession']>> | null = null;

  constructor(private page: Page) {}

  async start() {
    this.session = await this.page.context().newCDPSession(this.page);
    this.session.on('Page.screencastFrame', (frame) => {
      this.frames.push({ at: Date.now(), data: Buffer.from(frame.data, 'base64') });
      void this.session?.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
    });
    this.started = Date.now();
    await this.session.send('Page.startScreencast', { format: 'jpeg', quality: 80, maxWidth: WIDTH, maxHeight: HEIGHT, everyNthFrame: 1 });
  }

  /** A step begins: its caption shows from now until the next step. */
  mark(step: string) {
    this.marks.push({ step, at: Date.now() });
  }

  async stop() {
    await this.page.waitForTimeout(READ_MS);
    this.stopped = Date.now();
    await this.session?.send('Page.stopScreencast');
  }

  cues(): Cue[] {
    return this.marks.map((m, i) => ({
      step: m.step,
      startMs: Math.max(0, m.at - this.started),
      endMs: (this.marks[i + 1]?.at ?? this.stopped) - this.started,
    }));
  }

  get durationMs() {
    return this.stopped - this.started;
  }

  /** The frames on a steady timeline: at each tick the latest frame shown by then. */
  timeline(): Buffer[] {
    if (!this.frames.length) throw new Error('no frames recorded');
    const out: Buffer[] = [];
    let i = 0;
    for (let t = this.started; t < this.stopped; t += 1000 / FPS) {
      while (i + 1 < this.frames.length && this.frames[i + 1].at <= t) i++;
      out.push(this.frames[i].data);
    }
    return out;
  }
}

function encode(frames: Buffer[], file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // VP9 at constrained quality: screens are mostly still text, so a low bitrate stays sharp.
    const ff = spawn(ffmpegPath(), [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(FPS), '-i', 'pipe:0',
      '-vf', `scale=${WIDTH}:${HEIGHT}:force_original_aspect_ratio=decrease,pad=${WIDTH}:${HEIGHT}:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p`,
      '-c:v', 'libvpx-vp9', '-b:v', '160k', '-crf', '38', '-deadline', 'good', '-cpu-used', '4', '-row-mt', '1',
      '-g', String(FPS * 10), '-an', file,
    ], { stdio: ['pipe', 'inherit', 'inherit'] });
    ff.on('error', reject);
    ff.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`))));
    (async () => {
      for (const f of frames) if (!ff.stdin.write(f)) await new Promise((r) => ff.stdin.once('drain', r));
      ff.stdin.end();
    })().catch(reject);
  });
}

/** The poster: one frame of the recording (the flow's poster step, a moment in), as a small WebP. */
function poster(webm: string, atMs: number, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ff = spawn(ffmpegPath(), [
      '-hide_banner', '-loglevel', 'error', '-y', '-ss', (atMs / 1000).toFixed(2), '-i', webm,
      '-frames:v', '1', '-vf', 'scale=480:-2', '-c:v', 'libwebp', '-quality', '60', file,
    ], { stdio: ['ignore', 'inherit', 'inherit'] });
    ff.on('error', reject);
    ff.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg (poster) exited with ${code}`))));
  });
}

/** When the poster is taken: 1.5 s into its step, or the middle of a shorter one. */
export const posterAt = (cues: Cue[], step: string) => {
  const cue = cues.find((c) => c.step === step) ?? cues[0];
  return cue.startMs + Math.min(1500, (cue.endMs - cue.startMs) / 2);
};

const vttTime = (ms: number) => {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};

export function webVtt(cues: Cue[], text: (step: string) => string): string {
  return `WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${vttTime(c.startMs)} --> ${vttTime(c.endMs)}\n${text(c.step)}\n`).join('\n')}`;
}

// The flows ------------------------------------------------------------------------------------------------------

/** Points at an element as a viewer's eye would follow a cursor: scrolled into view, outlined for a moment. */
async function show(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await locator.evaluate((el: HTMLElement) => {
    el.style.outline = '4px solid #1f4fd1';
    el.style.outlineOffset = '2px';
  });
  await locator.page().waitForTimeout(700);
  await locator.evaluate((el: HTMLElement) => {
    el.style.outline = '';
    el.style.outlineOffset = '';
  });
}

async function click(locator: Locator) {
  await show(locator);
  await Promise.all([locator.page().waitForLoadState('load'), locator.click()]);
  await locator.page().waitForLoadState('load');
}

async function type(locator: Locator, text: string) {
  await locator.scrollIntoViewIfNeeded();
  await locator.pressSequentially(text, { delay: 60 });
}

async function signIn(page: Page, base: string, login: string, password: string) {
  await page.goto(`${base}/de/login`);
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await page.waitForLoadState('load');
  const choose = page.locator('form[action$="mandant-selection"] button[type=submit]');
  if (await choose.count()) {
    await choose.click();
    await page.waitForLoadState('load');
  }
}

interface FlowContext {
  page: Page;
  base: string;
  rec: Recorder;
  pause: () => Promise<void>;
}

/** What each flow does before recording (sign in) and while recording; each rec.mark() starts a step's caption. */
interface FlowScript {
  before?: (c: FlowContext) => Promise<void>;
  run: (c: FlowContext) => Promise<void>;
}
const FLOWS: Record<string, FlowScript> = {};

FLOWS.anmeldung = {
  before: async ({ page, base }) => {
    await page.goto(`${base}/de/login`);
  },
  run: async ({ page, base, rec, pause }) => {
    const { codeFor } = await import('../src/auth/mfa.js');
    const { DEMO_TOTP_SECRET } = await import('../src/seeds/demo.js');
    rec.mark('login');
    await pause();
    await type(page.locator('input[name=login]'), 'MFA');
    await type(page.locator('input[name=password]'), 'Mfa12345');
    rec.mark('password');
    await click(page.getByRole('button', { name: 'Anmelden', exact: true }));
    await pause();
    rec.mark('code');
    await type(page.locator('input[name=code]'), await codeFor(DEMO_TOTP_SECRET, Date.now()));
    await click(page.getByRole('button', { name: 'Code bestätigen' }));
    rec.mark('dashboard');
    await pause();
    rec.mark('einstellungen');
    await page.goto(`${base}/de/benutzer/einstellungen#zweiter-faktor`);
    await show(page.locator('#zweiter-faktor'));
    await pause();
  },
};

FLOWS.einlieferung = {
  before: async ({ page, base }) => signIn(page, base, 'ADMIN', 'Admin12345'),
  run: async ({ page, base, rec, pause }) => {
    rec.mark('list');
    await page.goto(`${base}/de/bewegungsdaten/einlieferungen`);
    await pause();
    rec.mark('new');
    await click(page.getByRole('link', { name: 'Neu anlegen' }));
    await pause();
    rec.mark('fields');
    await type(page.getByRole('textbox', { name: 'Nummer', exact: true }), 'EL-VIDEO-1');
    await page.getByLabel('Entladedatum').fill(new Date().toISOString().slice(0, 10));
    await type(page.getByRole('textbox', { name: 'Entladene Menge' }), '24.000');
    await page.locator('select[name=partnerNr]').selectOption('TP001');
    await page.locator('select[name=standortNr]').selectOption('1001');
    await page.locator('select[name=produktNr]').selectOption('P001');
    await show(page.locator('select[name=produktNr]'));
    await pause();
    rec.mark('save');
    await click(page.getByRole('button', { name: 'Anlegen' }));
    rec.mark('saved');
    await pause();
  },
};

FLOWS.import = {
  before: async ({ page, base }) => signIn(page, base, 'ADMIN', 'Admin12345'),
  run: async ({ page, base, rec, pause }) => {
    rec.mark('page');
    await page.goto(`${base}/de/bewegungsdaten/import`);
    await pause();
    rec.mark('code');
    await show(page.locator('#f-code'));
    await pause();
    rec.mark('file');
    const file = page.locator('input[type="file"][name="file"]');
    await show(file);
    await file.setInputFiles(path.join(ROOT, 'docs', 'import-beispiel-einlieferungen.csv'));
    await pause();
    rec.mark('preview');
    await click(page.getByRole('button', { name: 'Vorschau anzeigen' }));
    await pause();
    await page.mouse.wheel(0, 400);
    await pause();
    rec.mark('commit');
    await click(page.getByRole('button', { name: 'Jetzt importieren' }));
    await pause();
  },
};

FLOWS.nachweisverfolgung = {
  before: async ({ page, base }) => signIn(page, base, 'ADMIN', 'Admin12345'),
  run: async ({ page, base, rec, pause }) => {
    rec.mark('list');
    await page.goto(`${base}/de/bewegungsdaten/nachweisverfolgung?art=ablieferung`);
    await pause();
    rec.mark('open');
    // The newest outbound delivery: in the demo data one covered by a final certificate.
    await click(page.locator('main table tbody a[href*="art=ablieferung"]').first());
    await pause();
    rec.mark('trace');
    await show(page.getByRole('heading', { name: 'Lieferkette' }));
    await page.mouse.wheel(0, 250);
    await pause();
    await page.mouse.wheel(0, 250);
    await pause();
    rec.mark('legende');
    await show(page.getByRole('heading', { name: 'Bedeutung der Kennzeichnungen' }));
    await pause();
  },
};

FLOWS.bilanz = {
  before: async ({ page, base }) => signIn(page, base, 'ADMIN', 'Admin12345'),
  run: async ({ page, base, rec, pause }) => {
    rec.mark('list');
    await page.goto(`${base}/de/bewegungsdaten/bilanzen?status=geschlossen`);
    await pause();
    rec.mark('open');
    await click(page.locator('main table tbody a').last());
    await pause();
    rec.mark('figures');
    await show(page.getByRole('heading', { name: 'Kennzahlen' }));
    await pause();
    rec.mark('lines');
    await show(page.getByRole('heading', { name: 'Zuordnungen' }));
    await page.mouse.wheel(0, 200);
    await pause();
    await page.mouse.wheel(0, 300);
    await pause();
  },
};

FLOWS.bericht = {
  before: async ({ page, base }) => signIn(page, base, 'ADMIN', 'Admin12345'),
  run: async ({ page, base, rec, pause }) => {
    rec.mark('catalogue');
    await page.goto(`${base}/de/reports/liste`);
    await pause();
    rec.mark('generator');
    await click(page.getByRole('link', { name: /Mengenbilanz/ }).first());
    await pause();
    rec.mark('parameters');
    const heute = new Date().toISOString().slice(0, 10);
    await page.locator('select[name=bericht]').selectOption('mengenbilanz');
    await page.getByLabel('Startdatum').fill(`${heute.slice(0, 4)}-01-01`);
    await page.getByLabel('Enddatum').fill(heute);
    await page.locator('select[name=standort]').selectOption('1001');
    await show(page.locator('select[name=standort]'));
    await pause();
    await click(page.getByRole('button', { name: 'Bericht erzeugen' }));
    rec.mark('result');
    await show(page.locator('#report-titel'));
    await page.mouse.wheel(0, 300);
    await pause();
    rec.mark('totals');
    await show(page.locator('.list-totals'));
    await pause();
    await show(page.getByRole('heading', { name: 'Erläuterungen' }));
    await pause();
    rec.mark('downloads');
    await show(page.locator('.list-export'));
    await pause();
  },
};

FLOWS.dashboard = {
  before: async ({ page, base }) => signIn(page, base, 'USER', 'User12345'),
  run: async ({ page, base, rec, pause }) => {
    rec.mark('figures');
    await page.goto(`${base}/de/benutzer/dashboard`);
    await pause();
    rec.mark('stock');
    await show(page.getByRole('heading', { name: 'Aktueller Bestand je Standort' }));
    await page.mouse.wheel(0, 250);
    await pause();
    rec.mark('bell');
    await page.mouse.wheel(0, -2000);
    await show(page.locator('header a.nachrichten-chip'));
    await pause();
    await click(page.locator('header a.nachrichten-chip'));
    rec.mark('messages');
    await pause();
    rec.mark('read');
    await click(page.getByRole('button', { name: 'Als gelesen markieren' }).first());
    await show(page.locator('header a.nachrichten-chip'));
    await pause();
  },
};

// The run --------------------------------------------------------------------------------------------------------

async function startApp(): Promise<{ base: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'help-videos-'));
  process.env.PGLITE_DIR = dir;
  process.env.NODE_ENV ??= 'development';
  delete process.env.DATABASE_URL;
  const { loadConfig } = await import('../src/config.js');
  const { bootstrap } = await import('../src/bootstrap.js');
  const { closeDatabase } = await import('../src/db/knex.js');
  console.log('Seeding a fresh embedded database …');
  const { app, db } = await bootstrap(loadConfig(), { seedIfEmpty: true });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await closeDatabase(db.knex);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const { VIDEO_DIR, VIDEO_FLOWS, MAX_VIDEO_BYTES, manifestFile } = await import('../src/features/hilfe/videos.js');
  // --posters: only the posters again, from the recordings and the manifest as they are.
  if (process.argv.includes('--posters')) {
    const manifest = JSON.parse(readFileSync(manifestFile(), 'utf8'));
    for (const flow of VIDEO_FLOWS) {
      const v = manifest.videos.find((x: { name: string }) => x.name === flow.name);
      if (v) await poster(path.join(VIDEO_DIR, `${flow.name}.webm`), posterAt(v.cues, flow.poster), path.join(VIDEO_DIR, `${flow.name}.webp`));
    }
    return;
  }
  const only = process.argv.slice(2);
  const flows = VIDEO_FLOWS.filter((f) => !only.length || only.includes(f.name));
  if (only.some((n) => !VIDEO_FLOWS.some((f) => f.name === n))) throw new Error(`Unknown flow; known: ${VIDEO_FLOWS.map((f) => f.name).join(', ')}`);
  const texts = Object.fromEntries((['de', 'en'] as Lang[]).map((l) => [l, JSON.parse(readFileSync(path.join(ROOT, 'locales', l, 'hilfe.json'), 'utf8'))]));
  mkdirSync(VIDEO_DIR, { recursive: true });
  const manifest = existsSync(manifestFile()) ? JSON.parse(readFileSync(manifestFile(), 'utf8')) : { videos: [] };

  const app = await startApp();
  let browser: Browser | null = null;
  try {
    // Date inputs take their format from the browser's UI language, which Chromium on Linux reads from LANGUAGE
    // (not from --lang or the context's locale); it needs the browser's German locale files (Debian: chromium-l10n),
    // else it falls back to en-US and shows mm/dd/yyyy.
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--lang=de-DE'], env: { ...process.env, LANGUAGE: 'de' } });
    for (const flow of flows) {
      const script = FLOWS[flow.name];
      if (!script) throw new Error(`No script for the flow ${flow.name}`);
      const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, locale: 'de-DE', deviceScaleFactor: 1 });
      const page = await context.newPage();
      const rec = new Recorder(page);
      const c: FlowContext = { page, base: app.base, rec, pause: () => page.waitForTimeout(READ_MS) };
      await script.before?.(c);
      await rec.start();
      await script.run(c);
      await rec.stop();
      await context.close();

      const cues = rec.cues();
      const missing = flow.steps.filter((s) => !cues.some((q) => q.step === s));
      if (missing.length || cues.length !== flow.steps.length) throw new Error(`${flow.name}: the steps recorded (${cues.map((q) => q.step)}) are not the flow's (${flow.steps})`);
      const webm = path.join(VIDEO_DIR, `${flow.name}.webm`);
      await encode(rec.timeline(), webm);
      const bytes = statSync(webm).size;
      if (bytes > MAX_VIDEO_BYTES) throw new Error(`${flow.name}.webm has ${bytes} bytes, more than ${MAX_VIDEO_BYTES}`);
      for (const lang of ['de', 'en'] as Lang[]) {
        writeFileSync(path.join(VIDEO_DIR, `${flow.name}.${lang}.vtt`), webVtt(cues, (step) => texts[lang].videos[flow.name].steps[step]));
      }
      await poster(webm, posterAt(cues, flow.poster), path.join(VIDEO_DIR, `${flow.name}.webp`));
      const hash = createHash('sha256').update(readFileSync(webm)).digest('hex').slice(0, 12);
      const entry = { name: flow.name, width: WIDTH, height: HEIGHT, durationMs: rec.durationMs, bytes, hash, cues };
      manifest.videos = [...manifest.videos.filter((v: { name: string }) => v.name !== flow.name), entry];
      console.log(`${flow.name}: ${(bytes / 1024).toFixed(0)} KB, ${(rec.durationMs / 1000).toFixed(1)} s, ${cues.length} steps`);
    }
    manifest.videos.sort((a: { name: string }, b: { name: string }) => VIDEO_FLOWS.findIndex((f) => f.name === a.name) - VIDEO_FLOWS.findIndex((f) => f.name === b.name));
    writeFileSync(manifestFile(), `${JSON.stringify(manifest, null, 2)}\n`);
  } finally {
    await browser?.close();
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
