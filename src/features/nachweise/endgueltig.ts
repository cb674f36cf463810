// Marking a certificate final (endgültig): the supplier's final certificate has arrived for a provisional one.
// The certificate and every part split off it (Teilnachweise, through referenz_nachweis_nr, at any depth) lose
// their `vorlaeufig` flag in one transaction, each with a new version; the statuses that read the flag (an
// outbound delivery's certificate status, an inbound delivery's link status, the tracing) follow at once.
// Offered on an original certificate that is provisional and not cancelled, also when it is locked because it
// is used: being final is no change of its characteristics. A part becomes final with its original.
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import type { RecordAction } from '../../records/service.js';
import type { Meta, VersionedStore } from '../../db/versioned.js';
import type { Nachweis } from './nachweis.js';

/** The parts split off a certificate, at any depth (a chain is short; a loop must not hang: the depth is bounded). */
async function teileVon(tx: TenantScope, nr: string): Promise<string[]> {
  const { rows } = await tx.knex.raw(
    `with recursive teile(nr, tiefe) as (
       select nr, 1 from nachweise where mandant = ? and referenz_nachweis_nr = ?
       union all
       select n.nr, t.tiefe + 1 from nachweise n join teile t on n.referenz_nachweis_nr = t.nr and n.mandant = ? where t.tiefe < 50
     ) select distinct nr from teile order by nr`,
    [tx.mandant, nr, tx.mandant],
  );
  return (rows as { nr: string }[]).map((r) => r.nr);
}

/** The action for the certificates' store (passed in, so this module and nachweis.ts do not import each other). */
export function endgueltigAction(nachweisStore: VersionedStore<Nachweis>): RecordAction<Nachweis, Record<string, unknown>> {
  return {
    name: 'endgueltig',
    input: z.object({}).passthrough(),
    evenWhenLocked: true,
    offered: (r) => r.vorlaeufig === true && !r.storniert && !r.referenzNachweisNr,
    button: () => ({ label: 'nachweise:endgueltig.submit', hint: 'nachweise:endgueltig.hint', variant: 'primary' }),
    async run({ tx, record, actor }) {
      const teile: (Nachweis & Meta)[] = [];
      for (const nr of await teileVon(tx, record.nr)) {
        const teil = await nachweisStore.lock(tx, nr);
        if (teil?.vorlaeufig) teile.push(await nachweisStore.write(tx, teil, { vorlaeufig: false }, actor.user.id));
      }
      const after = await nachweisStore.write(tx, record, { vorlaeufig: false }, actor.user.id);
      return {
        record: after,
        flash: 'nachweise:flash.endgueltig',
        audit: { before: { vorlaeufig: true, teile: teile.map((t) => t.nr) }, after: { vorlaeufig: false, teile: teile.map((t) => t.nr) } },
      };
    },
  };
}
