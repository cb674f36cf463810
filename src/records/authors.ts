// Who saved a version, as the detail page's history and the API's /versionen name it: the user's login (with the
// API key's name when a key of that user's saved it), the demo data for the versions the seeds wrote, else
// "unknown" (a user who no longer exists).
import { DEMO_DATA, type VersionInfo } from '../db/versioned.js';

type Translate = (key: string, params?: Record<string, unknown>) => string;

export function authorOf(version: Pick<VersionInfo, 'benutzer' | 'quelle'> & Partial<Pick<VersionInfo, 'apiKey'>>, t: Translate): string {
  if (version.apiKey) return t('records:history.apiKey', { name: version.apiKey, login: version.benutzer ?? t('records:history.unknownUser') });
  if (version.benutzer) return version.benutzer;
  return t(version.quelle === DEMO_DATA ? 'records:history.demoData' : 'records:history.unknownUser');
}

/** The versions with `autor`, the name of who saved each, in the request's language. */
export function withAuthors<V extends Pick<VersionInfo, 'benutzer' | 'quelle'>>(history: readonly V[], t: Translate): (V & { autor: string })[] {
  return history.map((v) => ({ ...v, autor: authorOf(v, t) }));
}
