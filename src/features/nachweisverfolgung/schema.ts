// The detail's query parameters, for the page and the API alike: `art` (ablieferung | einlieferung) chooses the
// kind when the number exists as both; `fortfahren=1` (the page only) shows a chain without certificates
// after the warning. Anything else is refused by name, as the lists refuse unknown parameters.
import { HttpError, type FieldError } from '../../http/errors.js';
import { ARTEN, type Art } from './repo.js';

export interface DetailAnfrage {
  art: Art | null;
  fortfahren: boolean;
}

const einfach = (v: unknown): v is string => typeof v === 'string';

export function detailAnfrage(query: Record<string, unknown>, erlaubt: readonly ('art' | 'fortfahren')[] = ['art', 'fortfahren']): DetailAnfrage {
  const errors: FieldError[] = [];
  for (const name of Object.keys(query)) {
    if (!(erlaubt as readonly string[]).includes(name)) errors.push({ field: name, message: 'list.errors.unknown', params: { name } });
  }
  const { art, fortfahren } = query;
  if (art !== undefined && art !== '' && !(einfach(art) && (ARTEN as readonly string[]).includes(art))) errors.push({ field: 'art', message: 'nachweisverfolgung:errors.art' });
  if (fortfahren !== undefined && fortfahren !== '' && !(einfach(fortfahren) && ['0', '1'].includes(fortfahren))) errors.push({ field: 'fortfahren', message: 'nachweisverfolgung:errors.fortfahren' });
  // The message says what is wrong with the first parameter; the API lists each.
  if (errors.length) throw new HttpError(400, 'BAD_REQUEST', errors[0].message, errors, errors[0].params ?? {});
  return { art: einfach(art) && art ? (art as Art) : null, fortfahren: fortfahren === '1' };
}
