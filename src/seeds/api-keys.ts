// Demo API keys of DEMO (issue 19), so the page under Administration tells a story: the tank system of filling
// station 1007 with a known demo key (a demo value like the demo passwords, printed in the README, so anyone
// trying the product can call the API with it at once), and a revoked key of an old ERP whose secret nobody has.
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import { hashKey, newKey, visiblePrefix } from '../features/api-keys/keys.js';

/** The demo key of DEMO's tank system: scope 9/10 and 13/14, location 1007 only. */
export const DEMO_API_KEY = `npk_DEMO_${'demo-tankautomat-1007'.padEnd(43, '0')}`;

const tageZurueck = (today: Date, n: number) => new Date(today.getTime() - n * 86_400_000);

export async function seedApiKeys(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  if (!mandanten.includes('DEMO') || !(await trx('mandanten').where({ mandant: 'DEMO' }).first('mandant'))) return;
  const tadmin = await trx('benutzer').where({ login: 'TADMIN' }).first('id');
  if (!tadmin) return;
  await setTenant(trx, 'DEMO');
  if (await trx('api_keys').where({ mandant: 'DEMO' }).first('id')) return;
  const alt = newKey('DEMO');
  await trx('api_keys').insert([
    {
      mandant: 'DEMO', name: 'Tankautomat Spandau', praefix: visiblePrefix(DEMO_API_KEY), hash: hashKey(DEMO_API_KEY),
      rollen: JSON.stringify([9, 10, 13, 14]), standorte: JSON.stringify(['1007']), erstellt_von: tadmin.id,
      erstellt_am: tageZurueck(today, 40), zuletzt_benutzt_am: tageZurueck(today, 1),
    },
    {
      mandant: 'DEMO', name: 'Altes ERP', praefix: alt.praefix, hash: alt.hash, rollen: JSON.stringify([9, 10, 11, 12]), standorte: null,
      erstellt_von: tadmin.id, erstellt_am: tageZurueck(today, 120), zuletzt_benutzt_am: tageZurueck(today, 45),
      widerrufen_am: tageZurueck(today, 44), widerrufen_von: tadmin.id,
    },
  ]);
}
