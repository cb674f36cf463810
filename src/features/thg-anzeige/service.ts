// The public THG display (certificates-and-balances.md section 6, docs/decisions.md "Public THG display"): the
// figures a published link shows, and the tenant administrators' commands that publish the link, replace it
// by a new one and revoke it. The pages and the API call these same functions.
//
// The figures: the GHG saving of the bio quantities the tenant delivered today, this month and this year (the
// pure engine, src/domain/thg-anzeige.ts, over the posts repo.ts sums), each post with the Basiswert valid on
// its delivery's day; and what the year's saving equals in everyday terms, with the factors valid today. Only
// these totals and the tenant's name leave this module: no delivery, partner, location, product or user.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { audit } from '../../db/audit.js';
import { TenantScope } from '../../db/scope.js';
import { alsText, dez, gerundet } from '../../domain/dezimal.js';
import { aequivalentfaktorenAus, basiswertAus, type GesetzeswertZeile } from '../../domain/gesetzeswerte.js';
import { aequivalente, einsparungen, TONNEN_STELLEN, zeitraeume, type Aequivalent, type Einsparposten } from '../../domain/thg-anzeige.js';
import { conflict, notFound } from '../../errors.js';
import { HttpError } from '../../http/errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { isAdmin } from '../../permissions/index.js';
import { zeilen as gesetzeswertZeilen } from '../gesetzeswerte/repo.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import * as repo from './repo.js';

export type { Veroeffentlichung } from './repo.js';

/** The audit log's entity of a tenant's publication (its id: the tenant). */
export const AUDIT_ENTITY = 'thg-anzeige';
export const AUDIT = { publish: 'admin.thg_anzeige.publish', rotate: 'admin.thg_anzeige.rotate', revoke: 'admin.thg_anzeige.revoke' } as const;

/** What a display shows, and GET /api/thg-anzeige/{token} answers. */
export interface Anzeige {
  /** The tenant's name. */
  mandant: string;
  /** t CO2eq with exactly three places ("27.753", "0.000"). */
  heute: string;
  monat: string;
  jahr: string;
  /** The day "today" is (in Germany, ISO): the periods end there. */
  stand: string;
  /** When the figures were computed (ISO instant). */
  berechnetAm: string;
  /** The year's saving in everyday terms, each an estimate with its source and factor (kg CO2eq per unit). */
  aequivalente: (Aequivalent & { kgCo2e: string })[];
}

/** Tonnes as the display and the API give them: three places, "0.000" for nothing. */
export const tonnen = (t: string) => alsText(gerundet(dez(t), TONNEN_STELLEN));

/** A new link's secret: 24 random bytes, 32 characters of base64url (the column's check: [A-Za-z0-9_-]{16,64}). */
export const neuesToken = () => randomBytes(24).toString('base64url');

/** The state a form saw, so that a stale page never replaces a link someone else just made (409 instead). */
export type Erwartet = 'veroeffentlicht' | 'unveroeffentlicht';

/**
 * The savings of today, this month and this year from the posts of the year (repo.postengruppen) and the dated
 * Basiswert rows: the display's figures, and the dashboard's "THG saved this year" (which reads the same posts in
 * its own statement).
 */
export function einsparungenAus(werte: readonly GesetzeswertZeile[], gruppen: readonly repo.Postengruppe[], heute: string) {
  const basiswerte = new Map<string, string>();
  const basiswert = (datum: string) => {
    if (!basiswerte.has(datum)) basiswerte.set(datum, basiswertAus(werte, datum));
    return basiswerte.get(datum)!;
  };
  const posten: Einsparposten[] = gruppen.map((g) => ({ datum: g.datum, menge: g.menge, lcv: repo.lcvJeEinheit(g), e: g.e, basiswert: basiswert(g.datum) }));
  return einsparungen(posten, heute);
}

export class ThgAnzeigeService {
  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
  ) {}

  heute(): string {
    return heuteInDeutschland(new Date(this.clock.now()));
  }

  /** The figures a link shows; 404 alike for a token that never existed, a revoked one and a deactivated tenant. */
  async oeffentlich(token: string): Promise<Anzeige> {
    const m = await repo.mandantZumToken(this.knex, token);
    if (!m) throw notFound('thg-anzeige:errors.notFound');
    return this.zahlen(new TenantScope(this.knex, m.mandant), m.name);
  }

  /** The figures of the scope's tenant, shown under `name`: two reads (the dated values, then the posts in one statement). */
  async zahlen(scope: TenantScope, name: string): Promise<Anzeige> {
    const heute = this.heute();
    const berechnetAm = new Date(this.clock.now()).toISOString();
    const werte = await gesetzeswertZeilen(this.knex, ['basiswert', 'aequivalent']);
    // One round trip with its BEGIN and settings (together(): prepared, as a read of its own is not).
    const gruppen = await scope.together((s) => repo.postengruppen(s, zeitraeume(heute).jahrAb, heute));
    const summen = einsparungenAus(werte, gruppen, heute);
    const faktoren = aequivalentfaktorenAus(werte, heute);
    return {
      mandant: name,
      heute: tonnen(summen.heute),
      monat: tonnen(summen.monat),
      jahr: tonnen(summen.jahr),
      stand: heute,
      berechnetAm,
      aequivalente: aequivalente(summen.jahr, faktoren).map((a, i) => ({ ...a, kgCo2e: faktoren[i].kgCo2e })),
    };
  }

  private requireAdmin(a: RequestActor) {
    if (!isAdmin(a.principal)) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  }

  /** The publication of the actor's tenant (tenant administrators). */
  async stand(a: RequestActor): Promise<repo.Veroeffentlichung> {
    this.requireAdmin(a);
    const v = await repo.veroeffentlichung(this.knex, a.mandant);
    if (!v) throw notFound('errors.mandantNotFound');
    return v;
  }

  /**
   * Publishes the display under a new random link; when it is published already, the new link replaces the old
   * one, which stops working at once. The change and its audit entry in one transaction.
   */
  async neuerLink(a: RequestActor, erwartet?: Erwartet): Promise<repo.Veroeffentlichung> {
    this.requireAdmin(a);
    return this.knex.transaction(async (trx) => {
      const vorher = await repo.veroeffentlichung(trx, a.mandant, true);
      if (!vorher) throw notFound('errors.mandantNotFound');
      if (erwartet === 'unveroeffentlicht' && vorher.token) throw conflict('THG_ANZEIGE_VEROEFFENTLICHT', 'thg-anzeige:errors.schonVeroeffentlicht');
      if (erwartet === 'veroeffentlicht' && !vorher.token) throw conflict('THG_ANZEIGE_NICHT_VEROEFFENTLICHT', 'thg-anzeige:errors.nichtVeroeffentlicht');
      const token = neuesToken();
      const seit = new Date(this.clock.now());
      await repo.setzeToken(trx, a.mandant, token, seit);
      await audit(trx, {
        kind: vorher.token ? AUDIT.rotate : AUDIT.publish, mandant: a.mandant, benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: a.mandant, ip: a.ip,
        // The secret itself stays out of the log: the log is read by support, the link only by whom the tenant gives it.
        before: { veroeffentlicht: vorher.token != null, seit: vorher.seit },
        after: { veroeffentlicht: true, seit: seit.toISOString() },
      });
      return { ...vorher, token, seit: seit.toISOString() };
    });
  }

  /** Revokes the link: it answers 404 at once. Nothing published: nothing changes, no entry. */
  async widerrufen(a: RequestActor): Promise<repo.Veroeffentlichung> {
    this.requireAdmin(a);
    return this.knex.transaction(async (trx) => {
      const vorher = await repo.veroeffentlichung(trx, a.mandant, true);
      if (!vorher) throw notFound('errors.mandantNotFound');
      if (!vorher.token) return vorher;
      await repo.setzeToken(trx, a.mandant, null, null);
      await audit(trx, {
        kind: AUDIT.revoke, mandant: a.mandant, benutzerId: a.user.id, entity: AUDIT_ENTITY, entityId: a.mandant, ip: a.ip,
        before: { veroeffentlicht: true, seit: vorher.seit }, after: { veroeffentlicht: false, seit: null },
      });
      return { ...vorher, token: null, seit: null };
    });
  }
}
