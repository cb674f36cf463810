// The mass-balance allocation engine of a Bilanz (certificates-and-balances.md section 4), pure and exact:
// it distributes the certified bio quantity available at a location in a period to the partners' outbound
// deliveries and says, for every line, why. The Bilanz feature (issue 16) loads the inputs and stores the lines;
// this module decides nothing else and reads nothing.
//
// The rule, deterministic:
// - positions (one per partner rule at the location) by priority, 1 first; ties by partner number;
// - within a position, that partner's deliveries by date, then number;
// - each delivery's demand under a position: its quantity × the rule's bio content when the rule gives one,
//   else the delivery's bio quantity; what earlier positions already covered counts against it;
// - a position's bio quantity (bioMenge) caps what it takes in the period; it stops when the cap is used;
// - demand is covered from certificates oldest first (lieferungVon, then number), never more than a
//   certificate's rest: one line per (delivery, certificate) pair of a position, each keeping its certificate's
//   E (values are never averaged); a line belongs to one position, so a single position can be closed alone;
// - what stays open of a delivery is reported as not covered.
// Invariants (allocation.unit.test.ts, with fast-check): Σ lines per certificate ≤ its rest; Σ lines per
// delivery ≤ its demand; every line > 0; rest = input − Σ lines ≥ 0; the same input gives the same lines.
// All quantities are in one unit (the Bilanz's), as exact decimals (thousandths).
import { ausMilli, milli } from './lieferkette.js';
import { alsKurztext, dez, plus } from './dezimal.js';
import { energie, thgMinderungT } from './ghg.js';

export interface AllocationZertifikat {
  nr: string;
  /** What is left of it for this Bilanz. */
  rest: string;
  /** Start of its delivery period (ISO date), or null: then it counts as older than every dated one. */
  lieferungVon: string | null;
  /** E in g CO2eq/MJ. */
  thg: string;
  /** MJ per unit of the Bilanz's quantities, for the line's t CO2eq. */
  lcv: string;
  vorlaeufig?: boolean;
}

export interface AllocationPosition {
  id: string;
  partnerNr: string;
  prioritaet: number;
  /** Percent of the partner's delivered quantity to cover, or null. */
  biogehalt: string | null;
  /** The most this position takes in the period, or null: no cap. */
  bioMenge: string | null;
}

export interface AllocationLieferung {
  nr: string;
  partnerNr: string;
  datum: string;
  /** The delivered quantity. */
  menge: string;
  /** Its bio quantity (menge × its bio content): the demand when the rule gives no bio content. */
  bioMenge: string;
  /** What is already covered outside this allocation (assigned by hand, or by a closed position): counts
   * against the demand as an earlier position's lines do. */
  gedeckt?: string;
}

/** Why a line exists, as data: the pages and the API put it into words (begruendungText). */
export interface Begruendung {
  prioritaet: number;
  partnerNr: string;
  nachweisNr: string;
  /** The certificate's rest before and after this line. */
  restVorher: string;
  restNachher: string;
  /** The next older certificate this Bilanz used up before this one, or null (this one was the oldest given). */
  aufgebraucht: string | null;
  /** The position's cap left before this line, or null without a cap. */
  kappeVorher: string | null;
  /** What stays open of the delivery under this position after the line. */
  offenNachher: string;
}

export interface AllocationZeile {
  positionId: string;
  ablieferungNr: string;
  nachweisNr: string;
  menge: string;
  thg: string;
  /** t CO2eq saved against the Basiswert: menge × lcv × (Basiswert − E) / 10⁶. */
  thgMinderungT: string;
  begruendung: Begruendung;
}

export interface AllocationErgebnis {
  zeilen: AllocationZeile[];
  /** Deliveries whose demand stays (partly) open, with what is open. */
  nichtGedeckt: { ablieferungNr: string; positionId: string; offen: string }[];
  /** Σ of the certificates' rest given in. */
  eingang: string;
  zugeordnet: string;
  /** eingang − zugeordnet, never negative. */
  restBioMenge: string;
  thgMinderungT: string;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The distribution of `zertifikate` to `lieferungen` by `positionen` (see the header); `basiswert` in g CO2eq/MJ. */
export function verteile(input: { zertifikate: readonly AllocationZertifikat[]; positionen: readonly AllocationPosition[]; lieferungen: readonly AllocationLieferung[]; basiswert: string }): AllocationErgebnis {
  const zertifikate = [...input.zertifikate].sort((a, b) => (a.lieferungVon === b.lieferungVon ? 0 : a.lieferungVon === null ? -1 : b.lieferungVon === null ? 1 : byText(a.lieferungVon, b.lieferungVon)) || byText(a.nr, b.nr));
  const rest = new Map(zertifikate.map((z) => [z.nr, milli(z.rest) > 0n ? milli(z.rest) : 0n]));
  const eingang = [...rest.values()].reduce((s, v) => s + v, 0n);
  const positionen = [...input.positionen].sort((a, b) => a.prioritaet - b.prioritaet || byText(a.partnerNr, b.partnerNr) || byText(a.id, b.id));
  const lieferungen = [...input.lieferungen].sort((a, b) => byText(a.datum, b.datum) || byText(a.nr, b.nr));
  const gedeckt = new Map<string, bigint>(lieferungen.filter((l) => l.gedeckt != null).map((l) => [l.nr, milli(l.gedeckt!)])); // per delivery, across positions
  const zeilen: AllocationZeile[] = [];
  const nichtGedeckt: AllocationErgebnis['nichtGedeckt'] = [];

  // The certificate used up before each one (the reason names it): the previous one that had rest to begin with.
  const davor: (string | null)[] = [];
  for (let i = 0, letzter: string | null = null; i < zertifikate.length; i++) {
    davor.push(letzter);
    if (rest.get(zertifikate[i].nr)! > 0n) letzter = zertifikate[i].nr;
  }
  const jePartner = new Map<string, AllocationLieferung[]>();
  for (const l of lieferungen) jePartner.set(l.partnerNr, [...(jePartner.get(l.partnerNr) ?? []), l]);
  // Certificates are used up oldest first: those before `erster` have nothing left, so no search starts before it.
  let erster = 0;

  for (const p of positionen) {
    let kappe = p.bioMenge == null ? null : milli(p.bioMenge);
    for (const l of jePartner.get(p.partnerNr) ?? []) {
      const bedarf = p.biogehalt == null ? milli(l.bioMenge) : (milli(l.menge) * milli(p.biogehalt) + 50_000n) / 100_000n;
      let offen = bedarf - (gedeckt.get(l.nr) ?? 0n);
      if (offen <= 0n) continue;
      for (let i = erster; i < zertifikate.length; i++) {
        if (offen <= 0n || (kappe !== null && kappe <= 0n)) break;
        const z = zertifikate[i];
        const verfuegbar = rest.get(z.nr)!;
        if (verfuegbar <= 0n) {
          if (i === erster) erster++;
          continue;
        }
        const menge = min(min(offen, verfuegbar), kappe ?? offen);
        // Certificates are taken oldest first, so this is the oldest with rest; the one before it, if any, is used up.
        const aufgebraucht = davor[i];
        const kappeVorher = kappe;
        rest.set(z.nr, verfuegbar - menge);
        offen -= menge;
        if (kappe !== null) kappe -= menge;
        gedeckt.set(l.nr, (gedeckt.get(l.nr) ?? 0n) + menge);
        const begruendung: Begruendung = {
          prioritaet: p.prioritaet, partnerNr: p.partnerNr, nachweisNr: z.nr, restVorher: ausMilli(verfuegbar), restNachher: ausMilli(verfuegbar - menge),
          aufgebraucht, kappeVorher: kappeVorher === null ? null : ausMilli(kappeVorher), offenNachher: ausMilli(offen),
        };
        const zeile: AllocationZeile = {
          positionId: p.id, ablieferungNr: l.nr, nachweisNr: z.nr, menge: ausMilli(menge), thg: z.thg,
          thgMinderungT: thgMinderungT(energie(ausMilli(menge), z.lcv), z.thg, input.basiswert), begruendung,
        };
        zeilen.push(zeile);
      }
      if (offen > 0n) nichtGedeckt.push({ ablieferungNr: l.nr, positionId: p.id, offen: ausMilli(offen) });
    }
  }
  const zugeordnet = zeilen.reduce((s, z) => s + milli(z.menge), 0n);
  const summeT = zeilen.reduce((s, z) => plus(s, dez(z.thgMinderungT)), dez('0'));
  return {
    zeilen,
    nichtGedeckt,
    eingang: ausMilli(eingang),
    zugeordnet: ausMilli(zugeordnet),
    restBioMenge: ausMilli(eingang - zugeordnet),
    thgMinderungT: alsKurztext(summeT),
  };
}

/**
 * A line's reason in words (locales/{de,en}/bilanzen.json, `begruendung`), e.g. „Priorität 1 für Partner TP001;
 * Zertifikat N-1 ist das älteste mit Rest 20.000 L“: `t` translates in the page's language, `menge` writes a
 * quantity with its unit as the page does.
 */
export function begruendungText(b: Begruendung, t: (key: string, params: Record<string, unknown>) => string, menge: (v: string) => string): string {
  const k = (key: string, params: Record<string, unknown>) => t(`bilanzen:begruendung.${key}`, params);
  const teile = [
    k('prioritaet', { prioritaet: b.prioritaet, partner: b.partnerNr }),
    k('aeltestes', { nachweis: b.nachweisNr, rest: menge(b.restVorher) }) + (b.aufgebraucht ? ` ${k('aufgebraucht', { nachweis: b.aufgebraucht })}` : ''),
  ];
  if (Number(b.restNachher) === 0) teile.push(k('damitAufgebraucht', { nachweis: b.nachweisNr }));
  if (b.kappeVorher !== null) teile.push(k('kappe', { menge: menge(b.kappeVorher) }));
  if (Number(b.offenNachher) > 0) teile.push(k('offen', { menge: menge(b.offenNachher) }));
  return teile.join('; ');
}
