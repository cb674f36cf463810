// The Abholung (collection at a supplier's site): its fields as the API contract names them, the input schema
// and the versioned store. Its certificates are a versioned list of numbers (`nachweise`, what its versions
// show), mirrored into the working table `abholung_nachweise` (config.ts, afterSave). Kept apart from the
// entity declaration so the linking service (verknuepfung.ts) can use the store without importing pages.
import { z } from 'zod';
import { VersionedStore } from '../../db/versioned.js';
import { PRODUKTGRUPPEN } from '../../domain/fuels.js';
import { EINHEITEN } from '../../domain/units.js';
import { choice, date, decimal, optionalText, requiredText } from '../../records/fields.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';

/** More certificates than this on one collection is a mistake (a pasted list), not a truck's load. */
export const MAX_NACHWEISE = 200;

const NACHWEIS_NR = /^[A-Za-z0-9._-]{1,32}$/;

/**
 * The collection's certificates as the API sends them (`["N-1", …]` or `[{"nachweisNr": "N-1"}, …]`) or the
 * create form's one select (a single number). Absent (or an empty form field): undefined, so an edit without
 * them keeps the stored list; an empty list is refused. Every problem is reported on the field `nachweise`,
 * where the form shows it.
 */
export const nachweiseField = () =>
  z.unknown().optional().transform((v, ctx): string[] | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : null;
    if (!list) {
      ctx.addIssue({ code: 'custom', message: 'validation.invalidType' });
      return z.NEVER;
    }
    const nrs: string[] = [];
    for (const item of list) {
      const raw = typeof item === 'string' ? item : item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>).nachweisNr : undefined;
      const nr = typeof raw === 'string' ? raw.trim() : '';
      if (!NACHWEIS_NR.test(nr)) {
        ctx.addIssue({ code: 'custom', message: 'abholungen:errors.nachweisNrUngueltig' });
        return z.NEVER;
      }
      if (nrs.includes(nr)) {
        ctx.addIssue({ code: 'custom', message: 'abholungen:errors.nachweisDoppelt', params: { nr } });
        return z.NEVER;
      }
      nrs.push(nr);
    }
    if (!nrs.length) {
      ctx.addIssue({ code: 'custom', message: 'abholungen:errors.mindestensEinNachweis' });
      return z.NEVER;
    }
    if (nrs.length > MAX_NACHWEISE) {
      ctx.addIssue({ code: 'custom', message: 'abholungen:errors.zuVieleNachweise', params: { max: MAX_NACHWEISE } });
      return z.NEVER;
    }
    return nrs;
  });

/** An optional unit: absent keeps the stored one (a new collection: litres). */
const optionalEinheit = () => z.preprocess((v) => (v === '' || v === null ? undefined : v), choice(EINHEITEN).optional());

export const AbholungSchema = z.object({
  bilanzierungNr: optionalText(50),
  lieferdatum: date({ required: true }),
  lieferstelleNr: requiredText(32),
  lieferant: optionalText(200),
  ablieferungNr: optionalText(32),
  produktNr: optionalText(32),
  produktgruppe: choice(PRODUKTGRUPPEN),
  abgangProdukt: optionalText(200),
  produkttyp: optionalText(50),
  kraftstoffmenge: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }),
  menge: decimal({ min: 0, max: MAX_MENGE, scale: 3 }),
  volumen: decimal({ min: 0, max: MAX_MENGE, scale: 3 }),
  einheit: optionalEinheit(),
  anteil: decimal({ min: 0, max: 100, scale: 4 }),
  biogehalt: decimal({ min: 0, max: 100, scale: 4 }),
  kommentar: optionalText(2000),
  nachweise: nachweiseField(),
});

export type Abholung = Omit<z.infer<typeof AbholungSchema>, 'nachweise' | 'einheit'> & {
  einheit?: 'L' | 'kg';
  /** The certificate numbers, in the order they were added. */
  nachweise?: string[];
  storniert?: boolean;
};

export const abholungStore = new VersionedStore<Abholung>({
  table: 'abholungen',
  // A collection has no aktiv/inaktiv status; it is cancelled (storniert) instead.
  managedStatus: false,
  fields: {
    bilanzierungNr: 'bilanzierung_nr', lieferdatum: 'lieferdatum', lieferstelleNr: 'lieferstelle_nr', lieferant: 'lieferant',
    ablieferungNr: 'ablieferung_nr', produktNr: 'produkt_nr', produktgruppe: 'produktgruppe', abgangProdukt: 'abgang_produkt',
    produkttyp: 'produkttyp', kraftstoffmenge: 'kraftstoffmenge', menge: 'menge', volumen: 'volumen', einheit: 'einheit',
    anteil: 'anteil', biogehalt: 'biogehalt', kommentar: 'kommentar', nachweise: 'nachweise', storniert: 'storniert',
  },
});
