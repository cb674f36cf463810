// Lighthouse under its default mobile profile (simulated slow 4G: 150 ms RTT, 1.6 Mbit/s, 4× CPU slowdown) in
// Debian's Chromium (CHROME_PATH, default /usr/bin/chromium; never a downloaded browser). Reports the
// performance and accessibility scores, the main metrics, and the audits that keep a score below 100.
import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthousePage {
  name: string;
  url: string;
  /** Cookie header for a signed-in page. */
  cookie?: string;
}

export interface FailingAudit {
  id: string;
  category: string;
  title: string;
  score: number | null;
  displayValue?: string;
  /** Weight in its category's score (0 for diagnostics and opportunities, which act through the metrics). */
  weight: number;
}

export interface LighthouseResult {
  name: string;
  url: string;
  /** Where the page ended up: a signed-in page that redirects to the login has measured the wrong page. */
  finalUrl?: string;
  performance: number | null;
  accessibility: number | null;
  metrics: Record<string, number | null>;
  failing: FailingAudit[];
  /**
   * Lighthouse's measure of the host's CPU (lhr.environment.benchmarkIndex): it multiplies what the page's scripts
   * took on this machine by 4 to stand for a phone, so a slower host scores lower (it warns below 1000).
   */
  benchmarkIndex?: number;
  /** What Lighthouse said about the run itself (a slow host among it). */
  warnings?: string[];
  error?: string;
}

const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export function chromePath(): string | null {
  const path = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

export async function runLighthouse(pages: LighthousePage[], log: (s: string) => void): Promise<LighthouseResult[]> {
  const path = chromePath();
  if (!path) throw new Error('no Chromium (set CHROME_PATH or apt-get install chromium)');
  const results: LighthouseResult[] = [];
  for (const page of pages) {
    log(`lighthouse: ${page.name} (${page.url})`);
    let result: LighthouseResult | null = null;
    // Tracing now and then fails on a busy machine (NO_NAVSTART): up to three tries.
    for (let attempt = 1; attempt <= 3 && !result?.performance; attempt++) {
      // A fresh browser (and profile) per page: cookies a page sets would otherwise replace the signed-in
      // page's Cookie header, or sign in the next public page.
      const chrome = await chromeLauncher.launch({ chromePath: path, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
      try {
        result = await audit(page, chrome.port);
      } catch (err) {
        result = { name: page.name, url: page.url, performance: null, accessibility: null, metrics: {}, failing: [], error: (err as Error).message };
      } finally {
        await chrome.kill();
      }
    }
    results.push(result!);
  }
  return results;
}

async function audit(page: LighthousePage, port: number): Promise<LighthouseResult> {
  const run = await lighthouse(page.url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    extraHeaders: page.cookie ? { Cookie: page.cookie } : undefined,
  });
  if (!run) throw new Error('no result');
  const lhr = run.lhr;
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  if (lhr.finalDisplayedUrl !== page.url) throw new Error(`ended at ${lhr.finalDisplayedUrl} instead of ${page.url}`);
  const score = (id: string) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score! * 100));
  const failing: FailingAudit[] = [];
  for (const [categoryId, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 0.9) continue;
      if (['notApplicable', 'informative', 'manual', 'error'].includes(a.scoreDisplayMode)) continue;
      failing.push({ id: ref.id, category: categoryId, title: a.title, score: a.score, displayValue: a.displayValue, weight: ref.weight });
    }
  }
  failing.sort((a, b) => b.weight - a.weight || (a.score ?? 0) - (b.score ?? 0));
  return {
    name: page.name,
    url: page.url,
    finalUrl: lhr.finalDisplayedUrl,
    performance: score('performance'),
    accessibility: score('accessibility'),
    metrics: Object.fromEntries(METRICS.map((m) => [m, lhr.audits[m]?.numericValue ?? null])),
    failing: failing.slice(0, 8),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    warnings: lhr.runWarnings.map(String),
  };
}
