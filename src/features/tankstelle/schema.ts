// The one input of the Tankstelle: the tenant's thresholds of the traffic light, whole days from 1 to 365 (the
// database's check says the same: mandanten_tank_tage_chk). The page's form sends text, the API numbers; both
// go through here.
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { fieldErrors } from '../../http/validate.js';

export const MIN_TAGE = 1;
export const MAX_TAGE = 365;
const FEHLER = 'tankstelle:errors.tage';

/** Digits only (a form's text, trimmed) become a number; any other text fails as not a number. */
const tage = z.preprocess(
  (v) => (typeof v === 'string' ? (/^\s*\d{1,6}\s*$/.test(v) ? Number(v) : Number.NaN) : v),
  z.number({ error: FEHLER }).int(FEHLER).min(MIN_TAGE, FEHLER).max(MAX_TAGE, FEHLER),
);

export const EinstellungenSchema = z.object({ reichweiteTage: tage, verbrauchTage: tage });
export type EinstellungenInput = z.infer<typeof EinstellungenSchema>;

/** The settings from a body, or a 400 naming each wrong field. */
export function parseEinstellungen(body: unknown): EinstellungenInput {
  const parsed = EinstellungenSchema.safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(400, 'VALIDATION', FEHLER, fieldErrors(parsed.error));
  return parsed.data;
}
