// Data at scale (`npm run db:seed -- --scale N`): N deliveries (half in, half out) over a year for one tenant
// (default BENCH), with its master data and 90 days of stock, generated like the demo data. Only that
// tenant is touched; if it already has movement data, nothing happens unless `replace` is set, which first
// removes that tenant's movement data (and only that).
import type { Knex } from 'knex';
import { generateMovements, masterOf, writeMovements } from './bewegungsdaten.js';
import { setTenant } from '../db/rls.js';
import { seedStammdaten } from './stammdaten.js';

export interface ScaleOptions {
  mandant: string;
  deliveries: number;
  replace?: boolean;
  today?: Date;
}

export interface ScaleResult {
  einlieferungen: number;
  ablieferungen: number;
  bestaende: number;
  ms: number;
}

const MOVEMENT_TABLES = ['einlieferungen_versionen', 'einlieferungen', 'ablieferungen_versionen', 'ablieferungen', 'bestaende_versionen', 'bestaende'];

export class ScaleRefused extends Error {}

export async function seedScale(knex: Knex, opts: ScaleOptions): Promise<ScaleResult> {
  const started = Date.now();
  const mandant = opts.mandant.toUpperCase();
  if (!/^[A-Z0-9_-]{1,32}$/.test(mandant)) throw new ScaleRefused(`Ungültiger Mandant: ${opts.mandant}`);
  if (!Number.isInteger(opts.deliveries) || opts.deliveries < 2 || opts.deliveries > 5_000_000) throw new ScaleRefused('--scale erwartet eine Anzahl von 2 bis 5.000.000 Lieferungen');
  const result = await knex.transaction(async (trx) => {
    await trx('mandanten').insert({ mandant, name: `Lasttest ${mandant}` }).onConflict('mandant').ignore();
    await seedStammdaten(trx, [mandant]);
    await setTenant(trx, mandant);
    if (await trx('einlieferungen').where({ mandant }).first('nr')) {
      if (!opts.replace) throw new ScaleRefused(`Mandant ${mandant} hat schon Bewegungsdaten; mit --replace werden (nur) sie ersetzt.`);
      for (const table of MOVEMENT_TABLES) await trx(table).where({ mandant }).delete();
      await trx('nummernkreise').where({ mandant, kreis: 'bestaende' }).delete();
    }
    const master = await masterOf(trx, mandant);
    const today = opts.today ?? new Date();
    const rows = generateMovements({
      mandant, today, days: 365, stockDays: 90, perDirection: Math.floor(opts.deliveries / 2) + (opts.deliveries % 2), seed: 4711,
      standorte: master.standorte, produkte: master.produkte, partner: master.partner,
    });
    // An odd N: the extra one is inbound.
    if (rows.einlieferungen.length + rows.ablieferungen.length > opts.deliveries) rows.ablieferungen.pop();
    await writeMovements(trx, rows, today);
    return { einlieferungen: rows.einlieferungen.length, ablieferungen: rows.ablieferungen.length, bestaende: rows.bestaende.length, ms: 0 };
  });
  // Fresh statistics, so the planner uses the indexes at once rather than after autovacuum's next round.
  for (const table of MOVEMENT_TABLES) await knex.raw(`analyze ${table}`);
  return { ...result, ms: Date.now() - started };
}
