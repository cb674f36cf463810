import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max);
const optional = (max: number) => text(max).optional().transform((v) => (v ? v : null));

export const MandantInput = z.object({
  name: text(200).min(1),
  email: z.union([text(254).email(), z.literal('')]).optional().transform((v) => (v ? v : null)),
  strasse: optional(200),
  hausNr: optional(20),
  plz: optional(20),
  stadt: optional(100),
  land: optional(100),
  zertifizierungsnummer: optional(100),
});
export type MandantInput = z.infer<typeof MandantInput>;

/** The tenant id is chosen at creation and then fixed: every row of the tenant carries it in its key. */
export const NewMandantInput = MandantInput.extend({
  mandant: text(32).min(2).regex(/^[A-Za-z0-9_-]+$/).transform((v) => v.toUpperCase()),
});

export const MandantId = z.string().trim().min(1).max(32).regex(/^[A-Za-z0-9_-]+$/).transform((v) => v.toUpperCase());
export const StatusInput = z.object({ status: z.enum(['active', 'inactive']) }).strict();
