// What a proof (Nachweisbescheinigung) is linked to through the chain of custody, for its tabs einlieferungen,
// abholungen and ablieferungen: the same reads as the tracing (repo.ts), so a tab and a trace never disagree.
// - Abholungen: the collections that carry the proof's certificate or one of its parents up to the original.
// - Einlieferungen: the Einlieferungen those collections arrived as.
// - Ablieferungen: the Ablieferung the proof was issued for, and those of the parts split off it (not
//   cancelled: a cancelled assignment is no link).
import type { TenantScope } from '../../db/scope.js';
import type { Einheit } from '../../domain/units.js';
import * as repo from './repo.js';

export type VerknuepfungArt = 'einlieferungen' | 'abholungen' | 'ablieferungen';

export interface VerknuepfungZeile {
  nr: string;
  datum: string;
  menge: string;
  einheit: Einheit;
}

export async function verknuepfungenDerBescheinigung(
  scope: TenantScope, nb: { nr: string; nachweisNr: string }, art: VerknuepfungArt,
): Promise<VerknuepfungZeile[]> {
  if (art === 'ablieferungen') {
    const teile = await repo.bescheinigungenKette(scope, [nb.nr]);
    const nrs = teile.zeilen.flatMap((z) => (z.ablieferungNr ? [z.ablieferungNr] : []));
    return (await repo.lieferungen(scope, 'ablieferung', nrs)).zeilen.map((l) => ({ nr: l.nr, datum: l.datum, menge: l.menge, einheit: l.einheit }));
  }
  const kette = await repo.nachweiseKette(scope, [nb.nachweisNr], 'hoch');
  const abholungen = (await repo.abholungenMit(scope, kette.zeilen.map((n) => n.nr))).zeilen;
  if (art === 'abholungen') return abholungen.map((a) => ({ nr: a.nr, datum: a.lieferdatum, menge: a.kraftstoffmenge, einheit: a.einheit }));
  const ein = await repo.einlieferungenVon(scope, abholungen.map((a) => a.nr));
  return ein.zeilen.map((l) => ({ nr: l.nr, datum: l.datum, menge: l.menge, einheit: l.einheit }));
}
