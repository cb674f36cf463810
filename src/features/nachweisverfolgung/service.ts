// Opening a delivery's trace by its number: the page and the API call this. Numbers are unique per kind of
// delivery, not across both: without a kind, the one that exists is traced, and when both do the caller offers
// the choice (page) or refuses (API: 409).
import type { TenantScope } from '../../db/scope.js';
import { notFound } from '../../errors.js';
import { artenMitNr, verfolge, type Art, type Verfolgung } from './trace.js';

export type Geoeffnet = { typ: 'auswahl'; nr: string; arten: Art[] } | { typ: 'verfolgung'; verfolgung: Verfolgung };

/** 404 when the scope has no delivery of that number (or none of that kind): another tenant's or location's alike. */
export async function oeffne(scope: TenantScope, nr: string, art: Art | null, heute: string): Promise<Geoeffnet> {
  let kind = art;
  if (!kind) {
    const arten = await artenMitNr(scope, nr);
    if (arten.length > 1) return { typ: 'auswahl', nr, arten };
    kind = arten[0] ?? null;
  }
  const verfolgung = kind ? await verfolge(scope, kind, nr, heute) : null;
  if (!verfolgung) throw notFound('records:errors.notFound');
  return { typ: 'verfolgung', verfolgung };
}
