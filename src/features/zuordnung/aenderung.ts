// What an outbound delivery holding certificates may no longer change: its assignments were checked against
// its location, product group and bio quantity, so while any is live the delivery keeps its location and group,
// its bio quantity does not drop below what is covered, and it is not cancelled (its quantity would stay on a
// delivery that counts nowhere). Remove the certificates first; that gives their quantity back. This wraps the
// delivery's own checks (EntityConfig.prepare), so the form, the API's PUT and the cancel action all ask it;
// the record service has locked the delivery before, as assigning does, so no assignment slips in between. The
// movement-data import asks zuordnungsProbleme for each row that changes an outbound delivery.
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { ausMilli, milli } from '../../domain/lieferkette.js';
import { bioDerLieferung, gedeckt, type Belegung } from '../../domain/zuordnung.js';
import { ProblemError, type FieldError } from '../../errors.js';
import type { Lieferung } from '../lieferungen/lieferung.js';
import { zuLieferung, type Ablieferung } from './ablieferung.js';
import { belegung } from './service.js';

type Prepare = (tx: TenantScope, input: Lieferung, before: (Lieferung & Meta) | null) => Promise<Lieferung>;

/**
 * What keeps a delivery from becoming `out` while `belegt` (its live assignments) stands: cancelling it, another
 * location or product group, a bio quantity below what is covered. The form, the API and the import ask this.
 */
export function zuordnungsProbleme(before: Lieferung & Meta, out: Lieferung, belegt: readonly Belegung[]): FieldError[] {
  if (!belegt.length) return [];
  const errors: FieldError[] = [];
  if (out.storniert && !before.storniert) errors.push({ field: 'storniert', message: 'zuordnung:errors.stornoMitZuordnungen' });
  if (out.standortNr !== before.standortNr) errors.push({ field: 'standortNr', message: 'zuordnung:errors.standortMitZuordnungen' });
  if (out.produktgruppe !== before.produktgruppe) {
    errors.push({ field: 'produktgruppe', message: 'zuordnung:errors.gruppeMitZuordnungen' });
  } else {
    const l = zuLieferung({ ...before, ...out } as Ablieferung);
    const covered = milli(gedeckt(l, belegt));
    if (covered > milli(bioDerLieferung(l))) {
      errors.push({ field: 'menge', message: 'zuordnung:errors.bioMengeUnterDeckung', params: { gedeckt: ausMilli(covered), einheit: l.einheit } });
    }
  }
  return errors;
}

export function zuordnungenBleiben(prepare: Prepare): Prepare {
  return async (tx, input, before) => {
    const out = await prepare(tx, input, before);
    if (!before) return out;
    const errors = zuordnungsProbleme(before, out, await belegung(tx, before.nr));
    if (errors.length) throw new ProblemError('conflict', 'ZUORDNUNGEN_VORHANDEN', errors[0].message, errors, errors[0].params ?? {});
    return out;
  };
}
