import { z } from 'zod';
import { addressFields, optionalEmail, optionalText, requiredText } from '../../records/fields.js';

const text = (max: number) => z.string().trim().max(max);

export const MandantInput = z.object({
  name: requiredText(200),
  email: optionalEmail(),
  ...addressFields(),
  zertifizierungsnummer: optionalText(100),
});
export type MandantInput = z.infer<typeof MandantInput>;

/** The tenant id is chosen at creation and then fixed: every row of the tenant carries it in its key. */
export const NewMandantInput = MandantInput.extend({
  mandant: text(32).min(2).regex(/^[A-Za-z0-9_-]+$/).transform((v) => v.toUpperCase()),
});

export const MandantId = z.string().trim().min(1).max(32).regex(/^[A-Za-z0-9_-]+$/).transform((v) => v.toUpperCase());
export const StatusInput = z.object({ status: z.enum(['active', 'inactive']) }).strict();
