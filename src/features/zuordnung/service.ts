// Certificates on an outbound delivery (Zuordnung): assigning a certificate's quantity to an Ablieferung issues
// a Nachweisbescheinigung for that delivery (nachweisbescheinigungen.ablieferung_nr) and takes the quantity from
// the certificate's rest; unassigning cancels that proof and gives the quantity back. Pages and API call these
// functions; each change is one transaction with its audit entry on the delivery.
//
// Locks, always in this order, so two changes never wait for each other crosswise:
// 1. the delivery (two users assigning to one delivery: the second sees the first's assignment, and the bio
//    quantity is never exceeded);
// 2. the certificate (two deliveries drawing on one certificate: the second sees the rest the first left;
//    the database's CHECK on the rest stands behind it);
// 3. the proof (unassigning).
// One live assignment per delivery and certificate is also a unique index (migration lieferkette).
//
// A completed or locked delivery still takes certificates: they often arrive after the delivery, and an
// assignment changes no field of the delivery (it gets no new version; the audit entry is on it).
import { z } from 'zod';
import { audit } from '../../db/audit.js';
import { nextNumber } from '../../db/numbers.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { nachweisAblaufAus } from '../../domain/gesetzeswerte.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import { ausMilli, milli, zertifikatGruppe, type ZertifikatStatus } from '../../domain/lieferkette.js';
import type { Einheit } from '../../domain/units.js';
import { anteil, bioDerLieferung, gedeckt, hoechstens, lieferungZertifikatStatus, offen, type Belegung } from '../../domain/zuordnung.js';
import { ProblemError, notFound } from '../../errors.js';
import { partsIn } from '../../http/format.js';
import { decimal, recordNr } from '../../records/fields.js';
import type { Actor } from '../../records/service.js';
import { zeilen as gesetzeswertZeilen } from '../gesetzeswerte/repo.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';
import { merkmaleAus, nbStore } from '../nachweisbescheinigungen/config.js';
import { nachweisStore, type Nachweis } from '../nachweise/nachweis.js';
import { regelnOf, type Regel } from '../tauschpartner/regeln.js';
import { ablieferungStore, AUDIT_ENTFERNEN, AUDIT_ZUORDNEN, zuLieferung, type Ablieferung } from './ablieferung.js';

/** An assignment as the tab's form and the API send it. */
export const ZuordnungSchema = z.object({
  nachweisNr: recordNr(),
  volumen: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }),
});
export type ZuordnungInput = z.infer<typeof ZuordnungSchema>;

/** How many available certificates the tab and the API list at most (oldest first). */
export const MAX_VERFUEGBAR = 200;

/** Today in Germany (ISO): the day a certificate's expiry is measured against (the law is German). */
export function heuteInDeutschland(now = new Date()): string {
  const p = partsIn('Europe/Berlin', now);
  return `${p.year}-${p.month}-${p.day}`;
}

/** Quantities with their three decimals, as the records' API answers them ("1000.000"). */
const menge3 = (v: string) => {
  const m = milli(v);
  const abs = m < 0n ? -m : m;
  return `${m < 0n ? '-' : ''}${abs / 1000n}.${(abs % 1000n).toString().padStart(3, '0')}`;
};
const dec = (v: unknown) => (v == null ? null : String(v));

const problem = (kind: 'invalid' | 'not_found' | 'conflict', code: string, key: string, params: Record<string, unknown> = {}, field = 'nachweisNr') =>
  new ProblemError(kind, code, key, [{ field, message: key, params }], params);

/** The delivery, locked; 404 when it does not exist in the tenant or lies outside the scope's locations. */
async function gesperrteLieferung(tx: TenantScope, nr: string): Promise<Ablieferung> {
  const l = await ablieferungStore.lock(tx, nr);
  if (!l || !tx.allowsStandort(l.standortNr)) throw notFound();
  return l;
}

interface LiveZuordnung extends Belegung {
  nachweisNr: string;
  nachweisbescheinigungNr: string;
  thg: string | null;
  einsparung: string | null;
  datei: boolean;
  vorlaeufig: boolean;
  /** Issued by a closed Bilanz (a POC), not assigned by hand. */
  poc: boolean;
}

/** The delivery's live assignments (its proofs not cancelled), each with its certificate's state, in the order made. */
async function liveZuordnungen(scope: TenantScope, ablieferungNr: string): Promise<LiveZuordnung[]> {
  const q = scope.atStandorte(scope.table('nachweisbescheinigungen', 'b'), 'b.standort_nr').where('b.ablieferung_nr', ablieferungNr).where('b.storniert', false);
  const rows = await scope.leftJoin(q, 'nachweise', 'n', (j) => j.on('n.nr', 'b.nachweis_nr'))
    .orderBy([{ column: 'b.created_at' }, { column: 'b.nr' }])
    .select('b.nr', 'b.nachweis_nr', 'b.volumen', 'b.einheit', 'b.thg_emission', 'b.bilanz_id', 'n.einsparung', 'n.vorlaeufig', scope.knex.raw('(n.datei is not null) as datei'));
  return rows.map((r: Record<string, unknown>) => ({
    nachweisNr: String(r.nachweis_nr),
    nachweisbescheinigungNr: String(r.nr),
    volumen: String(r.volumen),
    einheit: r.einheit as Einheit,
    thg: dec(r.thg_emission),
    einsparung: dec(r.einsparung),
    vorlaeufig: r.vorlaeufig === true,
    datei: r.datei === true,
    poc: r.bilanz_id != null,
  }));
}

/** The day a certificate's rest expires: by its period's end, or its issue date when it names no period. */
const ablaufTag = (zeilen: Parameters<typeof nachweisAblaufAus>[0], n: { zeitraumBis?: string | null; ausstellungsdatum?: string | null }) =>
  nachweisAblaufAus(zeilen, String(n.zeitraumBis ?? n.ausstellungsdatum));

/**
 * Assigns `volumen` (in the certificate's unit) of a certificate to the delivery: a new proof for the delivery,
 * the certificate's rest lowered, an audit entry on the delivery; one transaction.
 */
export function zuordnen(scope: TenantScope, actor: Actor, ablieferungNr: string, input: ZuordnungInput, heute = heuteInDeutschland()) {
  return scope.transaction(async (tx) => {
    const l = await gesperrteLieferung(tx, ablieferungNr);
    if (l.storniert) throw new ProblemError('conflict', 'LIEFERUNG_STORNIERT', 'zuordnung:errors.lieferungStorniert');
    const n = await nachweisStore.lock(tx, input.nachweisNr);
    if (!n || !tx.allowsStandort(n.standortNr)) throw problem('not_found', 'NOT_FOUND', 'zuordnung:errors.nachweisUnbekannt', { nr: input.nachweisNr });
    const params = { nr: n.nr };
    if (n.storniert) throw problem('conflict', 'NACHWEIS_STORNIERT', 'zuordnung:errors.nachweisStorniert', params);
    if (!n.nachhaltig) throw problem('invalid', 'NICHT_NACHHALTIG', 'zuordnung:errors.nichtNachhaltig', params);
    if (n.produktgruppe !== zertifikatGruppe(l.produktgruppe as Produktgruppe)) {
      throw problem('invalid', 'ANDERE_PRODUKTGRUPPE', 'zuordnung:errors.andereGruppe', { ...params, gruppe: n.produktgruppe, lieferGruppe: l.produktgruppe });
    }
    if (n.standortNr !== l.standortNr) throw problem('invalid', 'ANDERER_STANDORT', 'zuordnung:errors.andererStandort', { ...params, standort: n.standortNr, lieferStandort: l.standortNr });
    const ablauf = ablaufTag(await gesetzeswertZeilen(tx.knex, ['nachweis_ablauf']), n);
    if (heute > ablauf) throw problem('conflict', 'NACHWEIS_ABGELAUFEN', 'zuordnung:errors.abgelaufen', { ...params, ablauf });

    const belegt = await liveZuordnungen(tx, l.nr);
    if (belegt.some((b) => b.nachweisNr === n.nr && !b.poc)) throw problem('conflict', 'BEREITS_ZUGEORDNET', 'zuordnung:errors.bereitsZugeordnet', params);
    // Required by the schema: never null here.
    const volumen = String(input.volumen);
    const einheit = n.einheit as Einheit;
    if (milli(volumen) > milli(String(n.mengeVerbleibend))) {
      throw problem('conflict', 'MEHR_ALS_REST', 'zuordnung:errors.mehrAlsRest', { ...params, rest: ausMilli(milli(String(n.mengeVerbleibend))), einheit }, 'volumen');
    }
    const lieferung = zuLieferung(l);
    const moeglich = hoechstens(lieferung, belegt, volumen, einheit);
    if (milli(moeglich) < milli(volumen)) {
      throw problem('conflict', 'MEHR_ALS_BIOMENGE', 'zuordnung:errors.mehrAlsBiomenge', {
        ...params, offen: moeglich, einheit, bio: bioDerLieferung(lieferung), lieferEinheit: lieferung.einheit,
      }, 'volumen');
    }

    const produkt = await tx.table('produkte').where({ nr: n.produktNr }).first('name');
    const nb = await nbStore.insert(tx, `NB-${await nextNumber(tx, 'nachweisbescheinigungen')}`, {
      nachweisNr: n.nr,
      volumen,
      lieferdatum: String(l.lieferdatum),
      kommentar: null,
      ...merkmaleAus(n, volumen, produkt?.name ?? null),
      // The quantity has left with the delivery: nothing of the proof remains to be used elsewhere.
      volumenVerbleibend: '0',
      referenzNachweisNr: null,
      ablieferungNr: l.nr,
      storniert: false,
    }, actor.user.id);
    const restVorher = String(n.mengeVerbleibend);
    const nachher = await nachweisStore.write(tx, n, { mengeVerbleibend: ausMilli(milli(restVorher) - milli(volumen)) }, actor.user.id);
    const zeile = { nachweisNr: n.nr, nachweisbescheinigungNr: nb.nr, volumen, einheit };
    await audit(tx.knex, {
      kind: AUDIT_ZUORDNEN, mandant: actor.mandant, benutzerId: actor.user.id, entity: 'ablieferungen', entityId: l.nr, ip: actor.ip,
      before: { zuordnung: null, nachweis: { nr: n.nr, mengeVerbleibend: restVorher, version: n.version } },
      after: { zuordnung: zeile, nachweis: { nr: n.nr, mengeVerbleibend: nachher.mengeVerbleibend, version: nachher.version } },
    });
    return {
      ...zeile,
      volumen: menge3(volumen),
      anteil: anteil(lieferung, volumen, einheit),
      vorlaeufig: n.vorlaeufig === true,
      thg: dec(nb.thgEmission),
      einsparung: dec(n.einsparung),
    };
  });
}

/** Unassigns a certificate: its proof for the delivery cancelled, the volume back on the certificate; one transaction. */
export function entfernen(scope: TenantScope, actor: Actor, ablieferungNr: string, nachweisNr: string) {
  return scope.transaction(async (tx) => {
    const l = await gesperrteLieferung(tx, ablieferungNr);
    const n = await nachweisStore.lock(tx, nachweisNr);
    // A POC of a closed Bilanz is not an assignment by hand: it cannot be taken back here.
    const row = n && (await tx.table('nachweisbescheinigungen').where({ ablieferung_nr: l.nr, nachweis_nr: n.nr, storniert: false }).whereNull('bilanz_id').forUpdate().first());
    if (!n || !row) throw problem('not_found', 'NICHT_ZUGEORDNET', 'zuordnung:errors.nichtZugeordnet', { nr: nachweisNr });
    const nb = nbStore.fromRow(row);
    await nbStore.write(tx, nb, { storniert: true }, actor.user.id);
    const restVorher = String(n.mengeVerbleibend);
    const nachher = await nachweisStore.write(tx, n, { mengeVerbleibend: ausMilli(milli(restVorher) + milli(String(nb.volumen))) }, actor.user.id);
    await audit(tx.knex, {
      kind: AUDIT_ENTFERNEN, mandant: actor.mandant, benutzerId: actor.user.id, entity: 'ablieferungen', entityId: l.nr, ip: actor.ip,
      before: { zuordnung: { nachweisNr: n.nr, nachweisbescheinigungNr: nb.nr, volumen: nb.volumen, einheit: nb.einheit }, nachweis: { nr: n.nr, mengeVerbleibend: restVorher, version: n.version } },
      after: { zuordnung: null, nachweis: { nr: n.nr, mengeVerbleibend: nachher.mengeVerbleibend, version: nachher.version } },
    });
    return { nachweisNr: n.nr, nachweisbescheinigungNr: nb.nr };
  });
}

export interface Zugeordnet {
  nachweisNr: string;
  nachweisbescheinigungNr: string;
  volumen: string;
  einheit: Einheit;
  anteil: string | null;
  vorlaeufig: boolean;
  thg: string | null;
  einsparung: string | null;
  /** Whether the certificate has its file (the tab links to it). */
  datei: boolean;
  /** Issued by a closed Bilanz (a POC): it cannot be taken back on the tab. */
  poc: boolean;
}

export interface Verfuegbar {
  nachweisNr: string;
  mengeVerbleibend: string;
  einheit: Einheit;
  lieferungVon: string | null;
  thg: string | null;
  einsparung: string | null;
  vorlaeufig: boolean;
  /** What the tab's form suggests: the rest, or what is still open of the bio quantity, whichever is less. */
  vorschlag: string;
}

export interface Uebersicht {
  zugeordnet: Zugeordnet[];
  verfuegbar: Verfuegbar[];
  /** The delivery's bio quantity, covered and open, in its unit. */
  bioMenge: string;
  gedeckt: string;
  offen: string;
  einheit: Einheit;
  zertifikatStatus: ZertifikatStatus;
  /** The partner's rules at the delivery's location (by priority): context for choosing. */
  regeln: Regel[];
}

/**
 * What a delivery's certificates tab and `GET …/nachweise` show: the live assignments, the delivery's bio
 * quantity with what is covered and open, the certificates that could still be assigned (same product group
 * and location, not cancelled, sustainable, not expired, with rest, not yet on this delivery; oldest first by
 * delivery date, then number), and the partner's rules at the location.
 */
export function uebersicht(scope: TenantScope, l: Ablieferung, heute = heuteInDeutschland()): Promise<Uebersicht> {
  return scope.transaction(async (tx) => {
    const lieferung = zuLieferung(l);
    const belegt = await liveZuordnungen(tx, l.nr);
    const zugeordnet = belegt.map((b) => ({ ...b, volumen: menge3(b.volumen), anteil: anteil(lieferung, b.volumen, b.einheit) }));
    const auf = tx.table('nachweisbescheinigungen', 'b').where('b.ablieferung_nr', l.nr).where('b.storniert', false).whereNull('b.bilanz_id').whereRaw('b.nachweis_nr = n.nr').select(tx.knex.raw('1'));
    // The expiry lies in the year after the period's end: certificates whose period ended before last year
    // are past it whatever the law's day; the exact day is checked below.
    const seit = `${Number(heute.slice(0, 4)) - 1}-01-01`;
    const kandidaten = await tx.atStandorte(tx.table('nachweise', 'n'), 'n.standort_nr')
      .where({ 'n.standort_nr': l.standortNr, 'n.produktgruppe': zertifikatGruppe(l.produktgruppe as Produktgruppe), 'n.storniert': false, 'n.nachhaltig': true, 'n.mit_rest': true })
      .whereNotExists(auf)
      .whereRaw('coalesce(n.zeitraum_bis, n.ausstellungsdatum) >= ?', [seit])
      .orderByRaw('n.lieferung_von asc nulls last, n.nr asc')
      .limit(MAX_VERFUEGBAR * 2)
      .select('n.*');
    const zeilen = await gesetzeswertZeilen(tx.knex, ['nachweis_ablauf']);
    const verfuegbar: Verfuegbar[] = [];
    for (const row of kandidaten as Record<string, unknown>[]) {
      const n = nachweisStore.fromRow(row) as Nachweis & Meta;
      if (heute > ablaufTag(zeilen, n) || verfuegbar.length >= MAX_VERFUEGBAR) continue;
      verfuegbar.push({
        nachweisNr: n.nr,
        mengeVerbleibend: menge3(String(n.mengeVerbleibend)),
        einheit: n.einheit as Einheit,
        lieferungVon: n.lieferungVon ?? null,
        thg: dec(n.thg),
        einsparung: dec(n.einsparung),
        vorlaeufig: n.vorlaeufig === true,
        vorschlag: menge3(hoechstens(lieferung, belegt, String(n.mengeVerbleibend), n.einheit as Einheit)),
      });
    }
    const regeln = (await regelnOf(tx, l.partnerNr)).filter((r) => r.standortNr === l.standortNr);
    return {
      zugeordnet,
      verfuegbar,
      bioMenge: menge3(bioDerLieferung(lieferung)),
      gedeckt: menge3(gedeckt(lieferung, belegt)),
      offen: menge3(offen(lieferung, belegt)),
      einheit: lieferung.einheit,
      zertifikatStatus: lieferungZertifikatStatus(lieferung, belegt),
      regeln,
    };
  });
}

/** The delivery's certificate status with its bio quantity, covered and open (the Allgemein tab shows it). */
export async function stand(scope: TenantScope, l: Ablieferung) {
  const lieferung = zuLieferung(l);
  const belegt = await liveZuordnungen(scope, l.nr);
  return {
    zertifikatStatus: lieferungZertifikatStatus(lieferung, belegt),
    bioMenge: bioDerLieferung(lieferung),
    gedeckt: gedeckt(lieferung, belegt),
    offen: offen(lieferung, belegt),
    einheit: lieferung.einheit,
    anzahl: belegt.length,
  };
}

/** The delivery's live assignments as the rules measure them (volume and unit, provisional or not). */
/** The live assignments of many deliveries at once (the import's rows), by delivery number. */
export async function belegungen(scope: TenantScope, ablieferungNrn: readonly string[]): Promise<Map<string, Belegung[]>> {
  const out = new Map<string, Belegung[]>();
  if (!ablieferungNrn.length) return out;
  const q = scope.table('nachweisbescheinigungen', 'b').whereIn('b.ablieferung_nr', [...ablieferungNrn]).where('b.storniert', false);
  const rows = await scope.leftJoin(q, 'nachweise', 'n', (j) => j.on('n.nr', 'b.nachweis_nr')).select('b.ablieferung_nr', 'b.volumen', 'b.einheit', 'n.vorlaeufig');
  for (const r of rows as Record<string, unknown>[]) {
    const nr = String(r.ablieferung_nr);
    out.set(nr, [...(out.get(nr) ?? []), { volumen: String(r.volumen), einheit: r.einheit as Einheit, vorlaeufig: r.vorlaeufig === true }]);
  }
  return out;
}

export async function belegung(scope: TenantScope, ablieferungNr: string): Promise<Belegung[]> {
  return (await liveZuordnungen(scope, ablieferungNr)).map(({ volumen, einheit, vorlaeufig }) => ({ volumen, einheit, vorlaeufig }));
}

/** The API's view of the overview: the contract's fields (the tab also uses the files and rules). */
export function uebersichtApi(u: Uebersicht) {
  return {
    zugeordnet: u.zugeordnet.map(({ datei: _d, poc: _p, ...z }) => z),
    verfuegbar: u.verfuegbar,
    bioMenge: u.bioMenge,
    gedeckt: u.gedeckt,
    offen: u.offen,
    einheit: u.einheit,
    zertifikatStatus: u.zertifikatStatus,
  };
}
