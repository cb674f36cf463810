// The commands of a Bilanz (PoC distribution), for the pages and the API alike: create, change the period,
// delete, positions (add, change, delete, split), allocate (with a preview), reset, close (with a preview) and
// close a single position. Each command is one transaction that locks the Bilanz first, checks the version the
// caller saw (409 when someone else changed it since), refuses every change of a closed Bilanz or position
// (409), and writes its audit entry with it.
//
// The allocation itself is the pure engine (src/domain/allocation.ts); this module loads its inputs (repo.ts),
// stores its lines and, when a position or the Bilanz closes, turns each line into a POC: a
// Nachweisbescheinigung for the delivery with the line's quantity and the certificate's characteristics, its
// quantity taken from the certificate's rest (the database's CHECK stands behind "never negative").
//
// Positions change → the stored allocation no longer holds: every change of the period or of an open position
// drops the open positions' lines, and the page says "not allocated" until the user allocates again.
import { audit } from '../../db/audit.js';
import { nextNumber } from '../../db/numbers.js';
import type { TenantScope } from '../../db/scope.js';
import { verteile, type AllocationErgebnis } from '../../domain/allocation.js';
import { ausMilli, milli, zertifikatGruppe } from '../../domain/lieferkette.js';
import { umrechnen, type Einheit } from '../../domain/units.js';
import { ProblemError, notFound } from '../../errors.js';
import type { Actor } from '../../records/service.js';
import { gesetzeswerteAm } from '../gesetzeswerte/service.js';
import { merkmaleAus, nbStore } from '../nachweisbescheinigungen/config.js';
import { nachweisStore } from '../nachweise/nachweis.js';
import * as repo from './repo.js';
import type { BilanzInput, PositionAenderung, PositionInput, TeilungInput, ZeitraumInput } from './schema.js';

export const ENTITY = 'bilanzen';
export const auditKind = (was: string) => `bewegungsdaten.bilanzen.${was}`;

const problem = (kind: 'invalid' | 'not_found' | 'conflict', code: string, key: string, params: Record<string, unknown> = {}, field?: string) =>
  new ProblemError(kind, code, key, field ? [{ field, message: key, params }] : [], params);

const isCode = (err: unknown, code: string, constraint?: string) =>
  (err as { code?: string })?.code === code && (!constraint || (err as { constraint?: string }).constraint === constraint || String((err as Error).message).includes(constraint));

/** The Bilanz, locked, in the user's locations; 404 otherwise. `version`: the one the caller saw. */
async function gesperrt(tx: TenantScope, id: number, version?: number) {
  const b = await repo.bilanz(tx, id, true);
  if (!b) throw notFound();
  if (version !== undefined && version !== b.version) throw problem('conflict', 'VERSION_CONFLICT', 'records:errors.versionConflict');
  return b;
}

/** As gesperrt, and open: a closed Bilanz takes no change. */
async function offenGesperrt(tx: TenantScope, id: number, version?: number) {
  const b = await gesperrt(tx, id, version);
  if (b.status !== 'offen') throw problem('conflict', 'BILANZ_GESCHLOSSEN', 'bilanzen:errors.geschlossen', { id });
  return b;
}

async function offenePosition(tx: TenantScope, b: repo.BilanzRow, positionId: number) {
  const p = (await repo.positionen(tx, b.id)).find((x) => x.id === positionId);
  if (!p) throw problem('not_found', 'NOT_FOUND', 'bilanzen:errors.positionUnbekannt', { id: positionId });
  if (p.status !== 'offen') throw problem('conflict', 'POSITION_GESCHLOSSEN', 'bilanzen:errors.positionGeschlossen', { id: positionId });
  return p;
}

/** A new version of the Bilanz row with `data` (snake_case columns), who and when. */
async function schreibe(tx: TenantScope, b: repo.BilanzRow, actor: Actor, data: Record<string, unknown> = {}) {
  await tx.table('bilanzen').where({ id: b.id }).update({ ...data, version: b.version + 1, updated_at: tx.knex.fn.now(), updated_by: actor.user.id });
}

const OHNE_VERTEILUNG = { verteilt_am: null, zugeordnet: null, rest_bio_menge: null, thg_minderung_t: null, menge_gesamt: null, bio_menge: null, nicht_gedeckt: '[]' };

/** Drops the open positions' lines: the stored allocation no longer holds (or is reset). */
async function verwerfen(tx: TenantScope, b: repo.BilanzRow) {
  const offen = tx.table('bilanz_positionen').where({ bilanz_id: b.id, status: 'offen' }).select('id');
  return tx.table('bilanz_zeilen').where({ bilanz_id: b.id }).whereIn('position_id', offen).delete();
}

async function protokoll(tx: TenantScope, actor: Actor, was: string, id: number, before: unknown, after: unknown) {
  await audit(tx.knex, { kind: auditKind(was), mandant: actor.mandant, benutzerId: actor.user.id, entity: ENTITY, entityId: id, ip: actor.ip, before, after });
}

function pruefeZeitraum(tx: TenantScope, b: { standortNr: string; produktNr: string; zeitraumVon: string; zeitraumBis: string }, ausser?: number) {
  return repo.ueberschneidung(tx, b, ausser).then((u) => {
    if (u) throw problem('conflict', 'ZEITRAUM_UEBERSCHNEIDUNG', 'bilanzen:errors.ueberschneidung', { id: u.id, von: u.zeitraumVon, bis: u.zeitraumBis }, 'zeitraumVon');
  });
}

/** The database's word on a create or period change that raced another: the same messages as the checks. */
function alsProblem(err: unknown, b: { standortNr: string; produktNr: string }): never {
  if (isCode(err, '23505', 'bilanzen_offen_uq')) throw problem('conflict', 'BILANZ_OFFEN', 'bilanzen:errors.offen', {}, 'standortNr');
  if (isCode(err, '23P01', 'bilanzen_zeitraum_ueberschneidung')) throw problem('conflict', 'ZEITRAUM_UEBERSCHNEIDUNG', 'bilanzen:errors.ueberschneidungAllgemein', b, 'zeitraumVon');
  if (isCode(err, '23514', 'bilanzen_zeitraum_chk')) throw problem('invalid', 'VALIDATION', 'bilanzen:errors.zuLang', { monate: 3 }, 'zeitraumBis');
  throw err;
}

/**
 * A new Bilanz for a location and product: refused while one is open for them (the spec's rule) or when its
 * period meets another's. Its positions are the partners' rules at the location.
 */
export async function anlegen(scope: TenantScope, actor: Actor, input: BilanzInput): Promise<number> {
  const b = { standortNr: input.standortNr, produktNr: input.produktNr, zeitraumVon: input.zeitraumVon!, zeitraumBis: input.zeitraumBis! };
  try {
    return await scope.transaction(async (tx) => {
      if (!tx.allowsStandort(b.standortNr) || !(await tx.table('standorte').where({ nr: b.standortNr }).first('nr'))) {
        throw problem('invalid', 'VALIDATION', 'bilanzen:errors.standortUnbekannt', { nr: b.standortNr }, 'standortNr');
      }
      const gruppe = await repo.produktgruppeOf(tx, b.produktNr);
      if (!gruppe) throw problem('invalid', 'VALIDATION', 'bilanzen:errors.produktUnbekannt', { nr: b.produktNr }, 'produktNr');
      const offen = await repo.offene(tx, b.standortNr, b.produktNr);
      if (offen) throw problem('conflict', 'BILANZ_OFFEN', 'bilanzen:errors.offen', { id: offen }, 'standortNr');
      await pruefeZeitraum(tx, b);
      const id = Number(await nextNumber(tx, 'bilanzen'));
      const einheit: Einheit = 'L';
      await tx.insert('bilanzen', {
        id, standort_nr: b.standortNr, produkt_nr: b.produktNr, zeitraum_von: b.zeitraumVon, zeitraum_bis: b.zeitraumBis, einheit,
        kommentar: input.kommentar ?? null, updated_by: actor.user.id,
      });
      const regeln = await repo.regelnAm(tx, b.standortNr, einheit, gruppe);
      if (regeln.length) await tx.insert('bilanz_positionen', regeln.map((r, i) => ({ bilanz_id: id, id: i + 1, partner_nr: r.partnerNr, prioritaet: r.prioritaet, biogehalt: r.biogehalt, bio_menge: r.bioMenge })));
      await protokoll(tx, actor, 'anlegen', id, null, { ...b, kommentar: input.kommentar ?? null, positionen: regeln });
      return id;
    });
  } catch (err) {
    return alsProblem(err, b);
  }
}

/** The period and comment of an open Bilanz; a new period drops the allocation. */
export async function aendern(scope: TenantScope, actor: Actor, id: number, input: ZeitraumInput): Promise<void> {
  const b0 = await repo.bilanz(scope, id);
  try {
    await scope.transaction(async (tx) => {
      const b = await offenGesperrt(tx, id, input.version);
      const neu = { ...b, zeitraumVon: input.zeitraumVon!, zeitraumBis: input.zeitraumBis! };
      const anders = neu.zeitraumVon !== b.zeitraumVon || neu.zeitraumBis !== b.zeitraumBis;
      if (anders) {
        if ((await repo.positionen(tx, id)).some((p) => p.status === 'geschlossen')) throw problem('conflict', 'POSITION_GESCHLOSSEN', 'bilanzen:errors.zeitraumFest', {}, 'zeitraumVon');
        await pruefeZeitraum(tx, neu, id);
        await verwerfen(tx, b);
      }
      await schreibe(tx, b, actor, { zeitraum_von: neu.zeitraumVon, zeitraum_bis: neu.zeitraumBis, kommentar: input.kommentar ?? null, ...(anders ? OHNE_VERTEILUNG : {}) });
      await protokoll(tx, actor, 'aendern', id, { zeitraumVon: b.zeitraumVon, zeitraumBis: b.zeitraumBis, kommentar: b.kommentar }, { zeitraumVon: neu.zeitraumVon, zeitraumBis: neu.zeitraumBis, kommentar: input.kommentar ?? null });
    });
  } catch (err) {
    return alsProblem(err, b0 ?? { standortNr: '', produktNr: '' });
  }
}

/** Deletes an open Bilanz none of whose positions is closed (a closed one has issued POCs). */
export async function loeschen(scope: TenantScope, actor: Actor, id: number, version?: number): Promise<void> {
  await scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, version);
    if ((await repo.positionen(tx, id)).some((p) => p.status === 'geschlossen')) throw problem('conflict', 'POSITION_GESCHLOSSEN', 'bilanzen:errors.loeschenGeschlossen', { id });
    await tx.table('bilanzen').where({ id }).delete();
    await protokoll(tx, actor, 'loeschen', id, { standortNr: b.standortNr, produktNr: b.produktNr, zeitraumVon: b.zeitraumVon, zeitraumBis: b.zeitraumBis }, null);
  });
}

const positionDaten = (p: { prioritaet: string | number | null; biogehalt: string | null; bioMenge: string | null }) => ({
  prioritaet: Number(p.prioritaet), biogehalt: p.biogehalt, bio_menge: p.bioMenge,
});

/** A position for a partner (a partner of the tenant); drops the allocation. */
export async function positionAnlegen(scope: TenantScope, actor: Actor, id: number, input: PositionInput): Promise<number> {
  return scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, input.version);
    if (!(await tx.table('tauschpartner').where({ nr: input.partnerNr }).first('nr'))) throw problem('invalid', 'VALIDATION', 'bilanzen:errors.partnerUnbekannt', { nr: input.partnerNr }, 'partnerNr');
    const max = await tx.table('bilanz_positionen').where({ bilanz_id: id }).max('id as m').first();
    const pid = Number(max?.m ?? 0) + 1;
    await tx.insert('bilanz_positionen', { bilanz_id: id, id: pid, partner_nr: input.partnerNr, ...positionDaten(input) });
    await verwerfen(tx, b);
    await schreibe(tx, b, actor, OHNE_VERTEILUNG);
    await protokoll(tx, actor, 'position-anlegen', id, null, { position: pid, partnerNr: input.partnerNr, prioritaet: input.prioritaet, biogehalt: input.biogehalt, bioMenge: input.bioMenge });
    return pid;
  });
}

/** Priority, bio content and bio quantity of an open position; drops the allocation. */
export async function positionAendern(scope: TenantScope, actor: Actor, id: number, positionId: number, input: PositionAenderung): Promise<void> {
  await scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, input.version);
    const p = await offenePosition(tx, b, positionId);
    await tx.table('bilanz_positionen').where({ bilanz_id: id, id: positionId }).update(positionDaten(input));
    await verwerfen(tx, b);
    await schreibe(tx, b, actor, OHNE_VERTEILUNG);
    await protokoll(tx, actor, 'position-aendern', id, { position: p.id, prioritaet: p.prioritaet, biogehalt: p.biogehalt, bioMenge: p.bioMenge }, { position: p.id, prioritaet: Number(input.prioritaet), biogehalt: input.biogehalt, bioMenge: input.bioMenge });
  });
}

export async function positionLoeschen(scope: TenantScope, actor: Actor, id: number, positionId: number, version?: number): Promise<void> {
  await scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, version);
    const p = await offenePosition(tx, b, positionId);
    await verwerfen(tx, b);
    await tx.table('bilanz_positionen').where({ bilanz_id: id, id: positionId }).delete();
    await schreibe(tx, b, actor, OHNE_VERTEILUNG);
    await protokoll(tx, actor, 'position-loeschen', id, { position: p.id, partnerNr: p.partnerNr, prioritaet: p.prioritaet, biogehalt: p.biogehalt, bioMenge: p.bioMenge }, null);
  });
}

/**
 * What a position holds to be split: its bio quantity (the cap), or without one what its bio content demands of
 * the partner's deliveries in the period.
 */
export async function positionsMenge(tx: TenantScope, b: repo.BilanzRow, p: repo.PositionRow, heute: string): Promise<string> {
  if (p.bioMenge != null) return p.bioMenge;
  const e = await repo.eingaben(tx, b, [p.partnerNr], heute);
  const bedarf = (e?.lieferungen ?? []).reduce((s, l) => s + (milli(l.menge) * milli(p.biogehalt ?? '0') + 50_000n) / 100_000n, 0n);
  return ausMilli(bedarf);
}

/**
 * Splits an open position into two of the same partner whose bio quantities add up to what it holds
 * (positionsMenge): the first part stays the position, the second is a new one (with its own priority, if
 * given). A split larger than the position, or one that does not add up, is refused.
 */
export async function teilen(scope: TenantScope, actor: Actor, id: number, positionId: number, input: TeilungInput, heute: string): Promise<number> {
  return scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, input.version);
    const p = await offenePosition(tx, b, positionId);
    const ganz = await positionsMenge(tx, b, p, heute);
    const [a, c] = input.teile;
    const summe = milli(a.bioMenge!) + milli(c.bioMenge!);
    const params = { summe: ausMilli(summe), menge: ganz, einheit: b.einheit };
    if (summe > milli(ganz)) throw problem('conflict', 'TEILUNG_ZU_GROSS', 'bilanzen:errors.teilungZuGross', params, 'teile');
    if (summe < milli(ganz)) throw problem('invalid', 'VALIDATION', 'bilanzen:errors.teilungNichtGanz', params, 'teile');
    const max = await tx.table('bilanz_positionen').where({ bilanz_id: id }).max('id as m').first();
    const neu = Number(max?.m ?? 0) + 1;
    await tx.table('bilanz_positionen').where({ bilanz_id: id, id: p.id }).update({ bio_menge: a.bioMenge, prioritaet: a.prioritaet == null ? p.prioritaet : Number(a.prioritaet) });
    await tx.insert('bilanz_positionen', { bilanz_id: id, id: neu, partner_nr: p.partnerNr, prioritaet: c.prioritaet == null ? p.prioritaet : Number(c.prioritaet), biogehalt: p.biogehalt, bio_menge: c.bioMenge });
    await verwerfen(tx, b);
    await schreibe(tx, b, actor, OHNE_VERTEILUNG);
    await protokoll(tx, actor, 'position-teilen', id, { position: p.id, bioMenge: p.bioMenge, menge: ganz }, { teile: [{ position: p.id, ...a }, { position: neu, ...c }] });
    return neu;
  });
}

export interface Verteilung {
  einheit: Einheit;
  ergebnis: AllocationErgebnis;
  /** The figures of the whole Bilanz: this allocation plus what closed positions already issued. */
  mengeGesamt: string;
  bioMenge: string;
  zugeordnet: string;
  restBioMenge: string;
  thgMinderungT: string;
  vorlaeufig: Set<string>;
  /** The delivery date of each delivery taking part, by number. */
  lieferdaten: Map<string, string>;
}

/** Runs the engine over the open positions and the current rests; reads only. */
export async function berechne(tx: TenantScope, b: repo.BilanzRow, heute: string): Promise<Verteilung> {
  const alle = await repo.positionen(tx, b.id);
  const offen = alle.filter((p) => p.status === 'offen');
  const e = await repo.eingaben(tx, b, alle.map((p) => p.partnerNr), heute);
  const basiswert = (await gesetzeswerteAm(tx.knex, b.zeitraumBis)).basiswert;
  const ergebnis = verteile({
    zertifikate: e?.zertifikate ?? [],
    positionen: repo.asPositionen(offen),
    lieferungen: (e?.lieferungen ?? []).filter((l) => offen.some((p) => p.partnerNr === l.partnerNr)),
    basiswert,
  });
  const geschlossen = (await repo.zeilen(tx, b.id)).filter((z) => z.nachweisbescheinigungNr != null);
  const frueher = geschlossen.reduce((s, z) => s + milli(z.menge), 0n);
  const frueherT = geschlossen.reduce((s, z) => s + Number(z.thgMinderungT ?? 0), 0);
  const mengeGesamt = (e?.lieferungen ?? []).reduce((s, l) => s + milli(l.menge), 0n);
  return {
    einheit: b.einheit,
    ergebnis,
    mengeGesamt: ausMilli(mengeGesamt),
    bioMenge: ausMilli(milli(ergebnis.eingang) + frueher),
    zugeordnet: ausMilli(milli(ergebnis.zugeordnet) + frueher),
    restBioMenge: ergebnis.restBioMenge,
    thgMinderungT: (Number(ergebnis.thgMinderungT) + frueherT).toFixed(4).replace(/\.?0+$/, ''),
    vorlaeufig: new Set((e?.zertifikate ?? []).filter((z) => z.vorlaeufig).map((z) => z.nr)),
    lieferdaten: new Map((e?.lieferungen ?? []).map((l) => [l.nr, l.datum])),
  };
}

/**
 * Allocates: the engine's lines for the open positions replace the stored ones, with the Bilanz's figures.
 * `vorschau`: the same answer, nothing stored.
 */
export async function verteilen(scope: TenantScope, actor: Actor, id: number, opts: { version?: number; vorschau?: boolean }, heute: string): Promise<Verteilung> {
  return scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, opts.version);
    const v = await berechne(tx, b, heute);
    if (opts.vorschau) return v;
    await verwerfen(tx, b);
    const max = await tx.table('bilanz_zeilen').where({ bilanz_id: id }).max('nr as m').first();
    const start = Number(max?.m ?? 0);
    const zeilen = v.ergebnis.zeilen.map((z, i) => ({
      bilanz_id: id, nr: start + i + 1, position_id: Number(z.positionId), ablieferung_nr: z.ablieferungNr, nachweis_nr: z.nachweisNr,
      menge: z.menge, thg: z.thg, thg_minderung_t: z.thgMinderungT, vorlaeufig: v.vorlaeufig.has(z.nachweisNr), begruendung: JSON.stringify(z.begruendung),
    }));
    for (let i = 0; i < zeilen.length; i += 500) await tx.insert('bilanz_zeilen', zeilen.slice(i, i + 500));
    await schreibe(tx, b, actor, {
      verteilt_am: tx.knex.fn.now(), menge_gesamt: v.mengeGesamt, bio_menge: v.bioMenge, zugeordnet: v.zugeordnet, rest_bio_menge: v.restBioMenge,
      thg_minderung_t: v.thgMinderungT, nicht_gedeckt: JSON.stringify(v.ergebnis.nichtGedeckt.map((n) => ({ ...n, positionId: Number(n.positionId) }))),
    });
    await protokoll(tx, actor, 'verteilen', id, { zugeordnet: b.zugeordnet }, { zeilen: zeilen.length, zugeordnet: v.zugeordnet, restBioMenge: v.restBioMenge });
    return v;
  });
}

/** Back to not allocated: the open positions' lines dropped (closed positions keep theirs). */
export async function zuruecksetzen(scope: TenantScope, actor: Actor, id: number, version?: number): Promise<void> {
  await scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, version);
    const weg = await verwerfen(tx, b);
    await schreibe(tx, b, actor, OHNE_VERTEILUNG);
    await protokoll(tx, actor, 'zuruecksetzen', id, { zeilen: weg, zugeordnet: b.zugeordnet }, { zeilen: 0 });
  });
}

/** A proof closing would issue (the preview) or issued. */
export interface Poc {
  positionId: number;
  zeile: number;
  ablieferungNr: string;
  lieferdatum: string;
  nachweisNr: string;
  /** In the certificate's unit (what the proof holds). */
  volumen: string;
  einheit: Einheit;
  thg: string | null;
  nachweisbescheinigungNr: string | null;
}

/**
 * The proofs closing the Bilanz (positionId null) or one position would issue: one per stored line of the open
 * positions concerned. Refused while the Bilanz is not allocated.
 */
async function zuSchliessen(tx: TenantScope, b: repo.BilanzRow, positionId: number | null): Promise<Poc[]> {
  if (!b.verteiltAm) throw problem('conflict', 'NICHT_VERTEILT', 'bilanzen:errors.nichtVerteilt', { id: b.id });
  const positionen = (await repo.positionen(tx, b.id)).filter((p) => p.status === 'offen' && (positionId == null || p.id === positionId));
  const zeilen = (await repo.zeilen(tx, b.id)).filter((z) => z.nachweisbescheinigungNr == null && positionen.some((p) => p.id === z.positionId));
  const daten = await repo.lieferdaten(tx, zeilen.map((z) => z.ablieferungNr));
  const einheiten = new Map<string, Einheit>();
  if (zeilen.length) {
    for (const r of await tx.table('nachweise').whereIn('nr', [...new Set(zeilen.map((z) => z.nachweisNr))]).select('nr', 'einheit')) einheiten.set(String(r.nr), r.einheit as Einheit);
  }
  const gruppe = zertifikatGruppe((await repo.produktgruppeOf(tx, b.produktNr)) ?? 'biodiesel');
  return zeilen.map((z) => {
    const einheit = einheiten.get(z.nachweisNr) ?? b.einheit;
    return {
      positionId: z.positionId, zeile: z.nr, ablieferungNr: z.ablieferungNr, lieferdatum: daten.get(z.ablieferungNr)?.datum ?? b.zeitraumBis,
      nachweisNr: z.nachweisNr, volumen: umrechnen(z.menge, b.einheit, einheit, gruppe), einheit, thg: z.thg, nachweisbescheinigungNr: null,
    };
  });
}

/** Issues the POCs of `pocs`: each takes its volume from its certificate's rest; 409 when a rest no longer suffices. */
async function ausstellen(tx: TenantScope, actor: Actor, b: repo.BilanzRow, pocs: Poc[]): Promise<Poc[]> {
  const out: Poc[] = [];
  const produkte = new Map<string, string | null>();
  // Certificates in a fixed order, so two closings never wait for each other crosswise.
  for (const nr of [...new Set(pocs.map((p) => p.nachweisNr))].sort()) {
    const n = await nachweisStore.lock(tx, nr);
    const eigene = pocs.filter((p) => p.nachweisNr === nr).map((p) => ({ ...p }));
    let summe = eigene.reduce((s, p) => s + milli(p.volumen), 0n);
    const restJetzt = n ? milli(String(n.mengeVerbleibend)) : 0n;
    // A certificate in the other unit: each line converted back may round a thousandth above its share, so a
    // certificate used up to its last litre would be short by as many thousandths; the last line gives them back.
    const ueber = summe - restJetzt;
    if (n && ueber > 0n && ueber <= BigInt(eigene.filter((p) => p.einheit !== b.einheit).length)) {
      const letzte = eigene[eigene.length - 1];
      letzte.volumen = ausMilli(milli(letzte.volumen) - ueber);
      summe = restJetzt;
    }
    if (!n || n.storniert || restJetzt < summe) {
      throw problem('conflict', 'VERTEILUNG_VERALTET', 'bilanzen:errors.veraltet', { nachweis: nr, rest: n ? ausMilli(milli(String(n.mengeVerbleibend))) : '0', einheit: n?.einheit ?? b.einheit });
    }
    if (!produkte.has(n.produktNr)) produkte.set(n.produktNr, (await tx.table('produkte').where({ nr: n.produktNr }).first('name'))?.name ?? null);
    for (const p of eigene) {
      const nb = await nbStore.insert(tx, `NB-${await nextNumber(tx, 'nachweisbescheinigungen')}`, {
        nachweisNr: n.nr, volumen: p.volumen, lieferdatum: p.lieferdatum, kommentar: null,
        ...merkmaleAus(n, p.volumen, produkte.get(n.produktNr) ?? null),
        volumenVerbleibend: '0', referenzNachweisNr: null, ablieferungNr: p.ablieferungNr, bilanzId: b.id, storniert: false,
      }, actor.user.id);
      await tx.table('bilanz_zeilen').where({ bilanz_id: b.id, nr: p.zeile }).update({ nachweisbescheinigung_nr: nb.nr });
      out.push({ ...p, nachweisbescheinigungNr: nb.nr });
    }
    await nachweisStore.write(tx, n, { mengeVerbleibend: ausMilli(milli(String(n.mengeVerbleibend)) - summe) }, actor.user.id);
  }
  return out.sort((x, y) => x.zeile - y.zeile);
}

/**
 * Closes the Bilanz: a POC for every line of its open positions, the positions and the Bilanz closed; from
 * then on nothing of it changes. `vorschau`: the POCs it would issue, nothing written.
 */
export async function abschliessen(scope: TenantScope, actor: Actor, id: number, opts: { version?: number; vorschau?: boolean }): Promise<Poc[]> {
  return scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, opts.version);
    const pocs = await zuSchliessen(tx, b, null);
    if (opts.vorschau) return pocs;
    const issued = await ausstellen(tx, actor, b, pocs);
    await tx.table('bilanz_positionen').where({ bilanz_id: id, status: 'offen' }).update({ status: 'geschlossen', geschlossen_am: tx.knex.fn.now() });
    await schreibe(tx, b, actor, { status: 'geschlossen', geschlossen_am: tx.knex.fn.now() });
    await protokoll(tx, actor, 'abschliessen', id, { status: 'offen' }, { status: 'geschlossen', pocs: issued.map((p) => p.nachweisbescheinigungNr) });
    return issued;
  });
}

/** Closes one position: a POC for each of its lines; the Bilanz stays open for the others. */
export async function positionAbschliessen(scope: TenantScope, actor: Actor, id: number, positionId: number, opts: { version?: number; vorschau?: boolean }): Promise<Poc[]> {
  return scope.transaction(async (tx) => {
    const b = await offenGesperrt(tx, id, opts.version);
    await offenePosition(tx, b, positionId);
    const pocs = await zuSchliessen(tx, b, positionId);
    if (opts.vorschau) return pocs;
    const issued = await ausstellen(tx, actor, b, pocs);
    await tx.table('bilanz_positionen').where({ bilanz_id: id, id: positionId }).update({ status: 'geschlossen', geschlossen_am: tx.knex.fn.now() });
    await schreibe(tx, b, actor);
    await protokoll(tx, actor, 'position-abschliessen', id, { position: positionId, status: 'offen' }, { position: positionId, status: 'geschlossen', pocs: issued.map((p) => p.nachweisbescheinigungNr) });
    return issued;
  });
}
