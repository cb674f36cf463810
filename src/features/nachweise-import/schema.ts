// The certificate import's inputs beyond the shared ones (src/import/schema.ts): which template to download.
import { z } from 'zod';

export const TemplateQuery = z.object({ format: z.enum(['csv', 'xlsx'], { error: 'validation.invalid' }).default('csv') });
