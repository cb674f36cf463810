// Personal settings, stored per user and type as JSON text (type 1: the settings screen).
import type { Knex } from 'knex';
import { affectedRows } from '../../db/knex.js';
import { UserSettingsSchema } from './schema.js';
import type { UserSettings } from '../../auth/current-user.js';

export const SETTINGS_TYPE = 1;

export async function readSettings(knex: Knex, userId: number, typ: number): Promise<string | null> {
  const row = await knex('einstellungen').where({ benutzer_id: userId, typ }).first('data');
  return row?.data ?? null;
}

export async function writeSettings(knex: Knex, userId: number, typ: number, data: string): Promise<void> {
  await knex('einstellungen')
    .insert({ benutzer_id: userId, typ, data, updated_at: knex.fn.now() })
    .onConflict(['benutzer_id', 'typ'])
    .merge(['data', 'updated_at']);
}

export async function deleteSettings(knex: Knex, userId: number, typ: number): Promise<boolean> {
  return affectedRows(await knex('einstellungen').where({ benutzer_id: userId, typ }).delete()) > 0;
}

/** Type 1 must be valid settings; it is stored normalised (defaults filled, unknown keys dropped). */
export function normaliseSettings(typ: number, data: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (typ !== SETTINGS_TYPE) return parsed !== null && typeof parsed === 'object' ? JSON.stringify(parsed) : null;
  const result = UserSettingsSchema.safeParse(parsed);
  return result.success ? JSON.stringify(result.data satisfies UserSettings) : null;
}
