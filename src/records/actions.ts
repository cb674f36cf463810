// The actions record types share: activating and deactivating master data, cancelling deliveries and undoing
// it. Each is a RecordAction (src/records/service.ts): mounted as `…/{nr}/status` and `…/{nr}/storno` on the
// pages and the API, guarded by the area's edit right, version-checked and audited by the record service.
import { z } from 'zod';
import type { Meta } from '../db/versioned.js';
import type { RecordAction } from './service.js';

type Rec = Record<string, unknown>;

/** Master data: active records are offered for selection, inactive ones stay visible where they were used. */
export function statusAction<T extends Rec>(): RecordAction<T, { status: 'aktiv' | 'inaktiv' }> {
  return {
    name: 'status',
    input: z.object({ status: z.enum(['aktiv', 'inaktiv'], { error: 'validation.invalid' }) }),
    button: (r: T & Meta) => ({
      label: r.status === 'aktiv' ? 'records:deactivate' : 'records:activate',
      hint: 'records:deactivateHint',
      variant: 'secondary',
      fields: { status: r.status === 'aktiv' ? 'inaktiv' : 'aktiv' },
    }),
    async run({ record: before, input, save }) {
      const record = await save({ status: input.status } as Partial<T> & { status: string });
      const changed = record.version !== before.version;
      return {
        record,
        flash: input.status === 'aktiv' ? 'records:flash.activated' : 'records:flash.deactivated',
        ...(changed ? { audit: { before: { status: before.status }, after: { status: record.status } } } : {}),
      };
    },
  };
}

/** `storniert` as a form or JSON sends it; absent means cancel. */
const stornoFlag = z.preprocess(
  (v) => (v === undefined || v === '' ? true : v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'validation.invalidType' }),
);

/**
 * Deliveries are never deleted: cancelling keeps the record (and its proof), marked everywhere and left out of
 * every total; `storniert: false` undoes it. A completed or locked delivery cannot be cancelled.
 */
export function stornoAction<T extends Rec & { storniert?: boolean | null }>(): RecordAction<T, { storniert: boolean }> {
  return {
    name: 'storno',
    input: z.object({ storniert: stornoFlag }),
    button: (r) => ({
      label: r.storniert ? 'bewegungsdaten:stornoAufheben' : 'bewegungsdaten:stornieren',
      hint: r.storniert ? 'bewegungsdaten:stornoAufhebenHint' : 'bewegungsdaten:stornierenHint',
      variant: r.storniert ? 'secondary' : 'danger',
      fields: { storniert: r.storniert ? 'false' : 'true' },
      ...(r.storniert ? {} : { confirm: 'bewegungsdaten:stornoConfirm' }),
    }),
    async run({ input, save }) {
      const record = await save({ storniert: input.storniert } as unknown as Partial<T>);
      return { record, flash: input.storniert ? 'bewegungsdaten:flash.storniert' : 'bewegungsdaten:flash.stornoAufgehoben' };
    },
  };
}
