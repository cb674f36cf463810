// The inputs of Nachrichten: a new message (page form and POST /api/nachrichten) and a message id in a path.
import { z } from 'zod';
import { date } from '../../records/fields.js';

export const MAX_TITEL = 200;
export const MAX_TEXT = 5000;
/** `an` of a system administrator: this tenant, or every active tenant. */
export const EMPFAENGER = ['mandant', 'alle'] as const;

export const NachrichtSchema = z
  .object({
    titel: z.string({ error: 'nachrichten:errors.titel' }).trim().min(1, 'nachrichten:errors.titel').max(MAX_TITEL, 'nachrichten:errors.titelLang'),
    // Line breaks as typed (Windows' \r\n as \n); the text is shown escaped, its paragraphs kept.
    text: z.string({ error: 'nachrichten:errors.text' }).transform((s) => s.replace(/\r\n?/g, '\n').trim())
      .pipe(z.string().min(1, 'nachrichten:errors.text').max(MAX_TEXT, 'nachrichten:errors.textLang')),
    gueltigVon: date({ required: true }),
    gueltigBis: date(),
    an: z.preprocess((v) => (v === '' || v == null ? 'mandant' : v), z.enum(EMPFAENGER, { error: 'validation.invalid' })),
  })
  .superRefine((n, ctx) => {
    if (n.gueltigVon && n.gueltigBis && n.gueltigBis < n.gueltigVon) ctx.addIssue({ code: 'custom', path: ['gueltigBis'], message: 'nachrichten:errors.bisVorVon' });
  });
export type NachrichtInput = z.output<typeof NachrichtSchema>;

/** A message id as the path names it: a positive whole number, else no such message (404). */
export const NachrichtId = z.string().regex(/^[1-9]\d{0,15}$/).transform(Number);
