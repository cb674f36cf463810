// The help pages' one input: the search word (?q=). Other parameters are ignored, as a search box's page may be
// bookmarked with anything behind it; a repeated or overlong q is refused with a translated reason.
import { z } from 'zod';
import { MAX_QUERY_LENGTH } from './search.js';

export const SearchQuery = z.object({
  q: z
    .string({ error: 'hilfe:suche.ungueltig' })
    .max(MAX_QUERY_LENGTH, { error: 'hilfe:suche.zuLang' })
    .optional()
    .default(''),
});
