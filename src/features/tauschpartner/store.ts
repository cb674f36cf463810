// The partner's fields, input schema and versioned store. `regeln` is not an input field: it is the snapshot of
// the partner's rules that regeln.ts writes with every rule change, so the rules are part of each version.
import { z } from 'zod';
import { VersionedStore } from '../../db/versioned.js';
import { ADDRESS_COLUMNS, addressFields, optionalEmail, optionalText, requiredText } from '../../http/fields.js';

export const TauschpartnerSchema = z.object({
  name: requiredText(200),
  ...addressFields(),
  email: optionalEmail(),
  gruppe: optionalText(100),
  vertrag: optionalText(100),
});

/** The values of one rule (its location aside). Decimals are exact strings. */
export interface RegelWerte {
  prioritaet: number;
  biogehalt: string | null;
  biomenge: string | null;
  biomengeEinheit: 'L' | 'kg' | null;
}

/** The rules of a version: per location number, in order of priority. */
export type RegelnSnapshot = Record<string, RegelWerte[]>;

export type Tauschpartner = z.infer<typeof TauschpartnerSchema> & { regeln?: RegelnSnapshot | null };

export const tauschpartnerStore = new VersionedStore<Tauschpartner>({
  table: 'tauschpartner',
  fields: {
    name: 'name', ...ADDRESS_COLUMNS, email: 'email', gruppe: 'gruppe', vertrag: 'vertrag',
    regeln: 'regeln',
  },
});
