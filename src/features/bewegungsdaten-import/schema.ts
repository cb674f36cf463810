// Inputs of the movement-data import, validated at the edge: import codes (create, update, delete) and the
// form fields that travel with an upload. The same schemas serve the pages and the API.
import { z } from 'zod';
import { requiredText } from '../../records/fields.js';
import { DELIVERY_RESOURCES } from '../lieferungen/names.js';
import { MAX_CODE_LENGTH } from './mapping.js';

export const Typ = z.enum(DELIVERY_RESOURCES as [string, ...string[]], { error: 'bewegungsdaten-import:errors.unknownType' });

const codeText = z.string({ error: 'validation.required' }).max(MAX_CODE_LENGTH, 'validation.tooLong');
const version = z.coerce.number({ error: 'validation.required' }).int('validation.invalid').min(1, 'validation.invalid');

/** An id of a saved import code in a URL or form; anything else is simply not found. */
export const CodeId = z.coerce.number().int().min(1).max(2_147_483_647);

export const CreateCode = z.object({ typ: Typ, name: requiredText(100), code: codeText });
/** An update names the version it was based on (lost-update protection: another version → 409). */
export const UpdateCode = z.object({ name: requiredText(100), code: codeText, version });
export const DeleteCode = z.object({ version: version.optional() });

/** The fields of a preview upload: the type, and a saved code by id or the code's text (else the default). */
export const PreviewFields = z.object({
  typ: Typ,
  codeId: z.preprocess((v) => (v === '' ? undefined : v), CodeId.optional()),
  code: z.preprocess((v) => (v === '' ? undefined : v), codeText.optional()),
  name: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(100, 'validation.tooLong').optional()),
});
