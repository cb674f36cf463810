// The help videos: the flows `npm run help:videos` records (scripts/help-videos.ts), one table used by the
// recording script, the page and the tests. Each flow's title, description and step texts live in
// locales/<lang>/hilfe.json (`videos.<name>`): the page lists the steps and the script writes them as the
// captions (WebVTT), so the page's description and the captions say the same thing.
//
// The script writes public/hilfevideos/<name>.webm, <name>.webp (poster), <name>.de.vtt, <name>.en.vtt and manifest.json (each
// video's size, duration, content hash and the start and end of each step); the page shows what the manifest
// lists, so a flow appears only once it is recorded.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ROOT } from '../../paths.js';

export const VIDEO_DIR = path.join(ROOT, 'public', 'hilfevideos');
export const VIDEO_URL = '/hilfevideos';
export const MAX_VIDEO_BYTES = 2 * 1024 * 1024;

export interface VideoFlow {
  name: string;
  /** The steps, in order; their texts are `videos.<name>.steps.<step>` in the hilfe namespace. */
  steps: readonly string[];
  /** The guide's chapter (its file name below docs/hilfe/dokumentation/<lang>/) that explains the flow. */
  chapter: string;
  /** The step whose screen is the video's poster (a small WebP, the only thing the page loads of a video). */
  poster: string;
}

export const VIDEO_FLOWS: readonly VideoFlow[] = [
  { name: 'anmeldung', chapter: '01-anmeldung', poster: 'code', steps: ['login', 'password', 'code', 'dashboard', 'einstellungen'] },
  { name: 'einlieferung', chapter: '04-bewegungsdaten', poster: 'fields', steps: ['list', 'new', 'fields', 'save', 'saved'] },
  { name: 'import', chapter: '05-import', poster: 'preview', steps: ['page', 'code', 'file', 'preview', 'commit'] },
  { name: 'nachweisverfolgung', chapter: '06-nachweise', poster: 'trace', steps: ['list', 'open', 'trace', 'legende'] },
  { name: 'bilanz', chapter: '07-bilanzen', poster: 'figures', steps: ['list', 'open', 'figures', 'lines'] },
  { name: 'bericht', chapter: '08-reports', poster: 'result', steps: ['catalogue', 'generator', 'parameters', 'result', 'totals', 'downloads'] },
  { name: 'dashboard', chapter: '08-reports', poster: 'figures', steps: ['figures', 'stock', 'bell', 'messages', 'read'] },
];

const Manifest = z.object({
  videos: z.array(
    z.object({
      name: z.string(),
      width: z.number(),
      height: z.number(),
      durationMs: z.number(),
      bytes: z.number(),
      /** The first 12 hex digits of the WebM's SHA-256: part of the address, so a new recording is fetched anew. */
      hash: z.string().regex(/^[0-9a-f]{12}$/),
      cues: z.array(z.object({ step: z.string(), startMs: z.number(), endMs: z.number() })),
    }),
  ),
});
export type VideoManifest = z.infer<typeof Manifest>;
export type RecordedVideo = VideoManifest['videos'][number];

export const manifestFile = () => path.join(VIDEO_DIR, 'manifest.json');

let cached: VideoManifest | null = null;
/** The recorded videos, in the order of VIDEO_FLOWS (an unknown name in the manifest is left out). */
export function recordedVideos(): (RecordedVideo & { flow: VideoFlow })[] {
  if (!cached) cached = existsSync(manifestFile()) ? Manifest.parse(JSON.parse(readFileSync(manifestFile(), 'utf8'))) : { videos: [] };
  const manifest = cached;
  return VIDEO_FLOWS.flatMap((flow) => {
    const video = manifest.videos.find((v) => v.name === flow.name);
    return video ? [{ ...video, flow }] : [];
  });
}

/** Addresses of a video's files; the hash makes each recording's address its own (cached for a year). */
export const videoUrls = (v: RecordedVideo) => ({
  webm: `${VIDEO_URL}/${v.name}.webm?v=${v.hash}`,
  poster: `${VIDEO_URL}/${v.name}.webp?v=${v.hash}`,
  vtt: (lang: string) => `${VIDEO_URL}/${v.name}.${lang}.vtt?v=${v.hash}`,
});
