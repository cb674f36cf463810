// The partner's fields, input schema and versioned store. `regeln` is not an input field: it is the snapshot of
// the partner's rules that regeln.ts writes with every rule change, so the rules are part of each version.
import { z } from 'zod';
import { VersionedStore } from '../../db/versioned.js';
import { ADDRESS_COLUMNS, addressFields, optionalEmail, optionalText, requiredText } from '../../records/fields.js';
import { fileField, type CheckedUpload, type FileKind, type FileRef } from '../../records/files.js';

/** What a partner's contract document may be. */
export const VERTRAG_KINDS: readonly FileKind[] = ['pdf', 'png', 'jpeg'];

export const TauschpartnerSchema = z.object({
  name: requiredText(200),
  ...addressFields(),
  email: optionalEmail(),
  gruppe: optionalText(100),
  vertrag: optionalText(100),
  // The signed contract as a PDF or a scan: stored with the partner, each replacement a new version.
  vertragDatei: fileField({ kinds: VERTRAG_KINDS }),
});

/** The spec's names (section 3) of the API where the stored ones differ: spec name → stored field. */
export const PARTNER_API_ALIASES = { group: 'gruppe' } as const;
export const REGEL_API_ALIASES = { priority: 'prioritaet' } as const;

/** The values of one rule (its location aside). Decimals are exact strings. */
export interface RegelWerte {
  prioritaet: number;
  biogehalt: string | null;
  biomenge: string | null;
  biomengeEinheit: 'L' | 'kg' | null;
}

/** The rules of a version: per location number, in order of priority. */
export type RegelnSnapshot = Record<string, RegelWerte[]>;

export type Tauschpartner = Omit<z.infer<typeof TauschpartnerSchema>, 'vertragDatei'> & { vertragDatei?: CheckedUpload | FileRef | null; regeln?: RegelnSnapshot | null };

export const tauschpartnerStore = new VersionedStore<Tauschpartner>({
  table: 'tauschpartner',
  fields: {
    name: 'name', ...ADDRESS_COLUMNS, email: 'email', gruppe: 'gruppe', vertrag: 'vertrag', vertragDatei: 'vertrag_datei',
    regeln: 'regeln',
  },
});
