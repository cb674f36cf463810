// Cancelling an outbound delivery that holds certificates would leave their quantity on a delivery that counts
// nowhere: it is refused (409) until the certificates are removed, which gives their quantity back. The record
// service locks the delivery before the action runs, as assigning does, so no assignment slips in between.
import { conflict } from '../../errors.js';
import { stornoAction } from '../../records/actions.js';
import type { RecordAction } from '../../records/service.js';
import type { Lieferung } from '../lieferungen/lieferung.js';
import { hatZuordnungen } from './service.js';

export function stornoOhneZuordnungen(): RecordAction<Lieferung, { storniert: boolean }> {
  const storno = stornoAction<Lieferung>();
  return {
    ...storno,
    async run(ctx) {
      if (ctx.input.storniert && (await hatZuordnungen(ctx.tx, ctx.record.nr))) throw conflict('ZUORDNUNGEN_VORHANDEN', 'zuordnung:errors.stornoMitZuordnungen');
      return storno.run(ctx);
    },
  };
}
