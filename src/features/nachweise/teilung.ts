// Teilung (split) of a quantity-tracked proof: a certificate (Nachweis) or a proof for a delivered quantity
// (Nachweisbescheinigung). Both keep a quantity and what remains of it; a split makes each part a record of its
// own with a number from the tenant's number range, `referenzNachweisNr` = the parent and every
// characteristic copied (values are never averaged), and lowers the parent's rest by exactly the parts' sum in
// the same transaction. The parent row is locked for the transaction (the record service's `act`), so of two
// concurrent splits that together exceed the rest the second sees the first's result and gets 409; the
// database's CHECK (rest >= 0) stands behind it.
//
// Undo (Teilung rückgängig) is a part's own action: while nothing of it is used (its rest is its whole
// quantity, so it has no live parts either), it is cancelled and its quantity returns to the parent. A record
// that is not a part is cancelled (Storno) under the same condition; what its quantity came from may take it
// back (a proof returns its volume to its certificate: `zurueck`).
import { z } from 'zod';
import { reserveNumbers } from '../../db/numbers.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta, VersionedStore } from '../../db/versioned.js';
import { ProblemError, conflict } from '../../errors.js';
import { decimal } from '../../records/fields.js';
import type { RecordAction, Actor } from '../../records/service.js';
import type { RecordSection } from '../../records/entity.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';

/** How many parts the page's form offers (the API takes up to MAX_TEILE). */
export const FORM_TEILE = 5;
export const MAX_TEILE = 50;

type Rec = Record<string, unknown>;

export interface TeilbarSpec<T extends Rec> {
  /** i18n namespace of the texts (flash, labels). */
  ns: string;
  store: VersionedStore<T>;
  /** The quantity and its rest, as record fields. */
  menge: string;
  rest: string;
  /** Number range of the parts and the prefix of their numbers. */
  kreis: string;
  prefix: string;
  /** The fields of a part beyond the copied ones that depend on its quantity (e.g. its energy and t CO2eq). */
  teil(parent: T & Meta, menge: string): Partial<T>;
  /** What a cancelled record that is not a part gives back (a proof's volume to its certificate). */
  zurueck?(tx: TenantScope, record: T & Meta, actor: Actor): Promise<void>;
}

// Decimal arithmetic in thousandths (the scale of stored quantities), exact.
const milli = (v: unknown) => {
  const [int, frac = ''] = String(v).split('.');
  const sign = int.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(int.replace('-', '')) * 1000n + BigInt(frac.padEnd(3, '0').slice(0, 3)));
};
const fromMilli = (m: bigint) => {
  const sign = m < 0n ? '-' : '';
  const abs = m < 0n ? -m : m;
  const frac = (abs % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return `${sign}${abs / 1000n}${frac ? `.${frac}` : ''}`;
};
export const mengeMilli = milli;
export const mengeAusMilli = fromMilli;

/** The parts as the API sends them (`teile: [{menge}]`), or as the page's form does (`menge1` … `menge5`, empty ones left out). */
const TeilungInput = z.preprocess(
  (raw) => {
    const body = (raw ?? {}) as Rec;
    if (body.teile !== undefined) return body;
    const teile = Array.from({ length: FORM_TEILE }, (_, i) => body[`menge${i + 1}`]).filter((v) => typeof v === 'string' && v.trim() !== '').map((menge) => ({ menge }));
    return { teile };
  },
  z.object({
    teile: z.array(z.object({ menge: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }) }), { error: 'validation.invalidType' })
      .min(1, 'nachweise:errors.keineTeile').max(MAX_TEILE, 'nachweise:errors.zuVieleTeile'),
  }),
);
type TeilungInput = { teile: { menge: string | null }[] };

const isPart = (r: Rec) => Boolean(r.referenzNachweisNr);
const unused = (r: Rec, spec: { menge: string; rest: string }) => milli(r[spec.rest]) === milli(r[spec.menge]);

/** The split, undo and cancel actions and the tab that shows the chain of references, for one record type. */
export function teilbar<T extends Rec>(spec: TeilbarSpec<T>): { actions: RecordAction<T, any>[]; sections: RecordSection<T>[] } {
  const { store } = spec;

  const teilung: RecordAction<T, TeilungInput> = {
    name: 'teilung',
    input: TeilungInput as unknown as z.ZodType<TeilungInput>,
    // The API answers the parts (201), not the certificate.
    answer: { status: 201, many: true },
    // A used certificate or a part is locked for edits, but what remains of it may be split further.
    evenWhenLocked: true,
    section: 'teilung',
    offered: (r) => !r.storniert && milli(r[spec.rest]) > 0n,
    button: () => ({ label: `${spec.ns}:teilung.submit`, variant: 'primary' }),
    async run({ tx, record, input, actor }) {
      const mengen = input.teile.map((t) => milli(t.menge));
      const summe = mengen.reduce((a, b) => a + b, 0n);
      const rest = milli(record[spec.rest]);
      if (summe > rest) {
        const params = { summe: fromMilli(summe), rest: fromMilli(rest), einheit: record.einheit };
        throw new ProblemError('conflict', 'TEILUNG_ZU_GROSS', `${spec.ns}:errors.teilungZuGross`, [{ field: 'teile', message: `${spec.ns}:errors.teilungZuGross`, params }], params);
      }
      const first = (await reserveNumbers(tx.knex, tx.mandant, spec.kreis, mengen.length)) + 1;
      const { nr: _nr, version: _v, updatedAt: _u, ...merkmale } = record as Rec;
      const teile: (T & Meta)[] = [];
      for (const [i, m] of mengen.entries()) {
        const menge = fromMilli(m);
        const data = { ...merkmale, [spec.menge]: menge, [spec.rest]: menge, referenzNachweisNr: record.nr, storniert: false, ...spec.teil(record, menge) } as unknown as T;
        teile.push(await store.insert(tx, `${spec.prefix}${first + i}`, data, actor.user.id));
      }
      const after = await store.write(tx, record, { [spec.rest]: fromMilli(rest - summe) } as Partial<T>, actor.user.id);
      return {
        record: after,
        data: teile,
        status: 201,
        flash: `${spec.ns}:flash.geteilt`,
        audit: { before: { [spec.rest]: record[spec.rest] }, after: { [spec.rest]: after[spec.rest], teile: teile.map((t) => ({ nr: t.nr, [spec.menge]: t[spec.menge] })) } },
      };
    },
  };

  const rueckfuehrung: RecordAction<T, Rec> = {
    name: 'rueckfuehrung',
    input: z.object({}).passthrough(),
    evenWhenLocked: true,
    offered: (r) => isPart(r) && !r.storniert && unused(r, spec),
    button: () => ({ label: `${spec.ns}:teilung.rueckfuehrung`, hint: `${spec.ns}:teilung.rueckfuehrungHint`, variant: 'secondary' }),
    async run({ tx, record, actor }) {
      const parent = await store.lock(tx, String(record.referenzNachweisNr));
      if (!parent) throw conflict('TEIL_OHNE_STAMM', `${spec.ns}:errors.stammFehlt`);
      const parentAfter = await store.write(tx, parent, { [spec.rest]: fromMilli(milli(parent[spec.rest]) + milli(record[spec.menge])) } as Partial<T>, actor.user.id);
      const after = await store.write(tx, record, { storniert: true, [spec.rest]: '0' } as unknown as Partial<T>, actor.user.id);
      return {
        record: after,
        flash: `${spec.ns}:flash.rueckgefuehrt`,
        audit: { before: { [spec.rest]: record[spec.rest], stamm: { nr: parent.nr, [spec.rest]: parent[spec.rest] } }, after: { storniert: true, [spec.rest]: '0', stamm: { nr: parent.nr, [spec.rest]: parentAfter[spec.rest] } } },
      };
    },
  };

  const storno: RecordAction<T, Rec> = {
    name: 'storno',
    input: z.object({}).passthrough(),
    offered: (r) => !isPart(r) && !r.storniert && unused(r, spec),
    button: () => ({ label: 'bewegungsdaten:stornieren', hint: `${spec.ns}:stornoHint`, variant: 'danger' }),
    async run({ tx, record, actor }) {
      await spec.zurueck?.(tx, record, actor);
      const after = await store.write(tx, record, { storniert: true, [spec.rest]: '0' } as unknown as Partial<T>, actor.user.id);
      return { record: after, flash: 'bewegungsdaten:flash.storniert' };
    },
  };

  const section: RecordSection<T> = {
    key: 'teilung',
    label: `${spec.ns}:teilung.tab`,
    view: 'nachweise/teilung',
    locals: async ({ scope, record }) => ({ kette: await referenzKette(scope, store, record!), teilSpec: { ns: spec.ns, menge: spec.menge, rest: spec.rest, felder: FORM_TEILE } }),
  };

  return { actions: [teilung, rueckfuehrung, storno], sections: [section] };
}

export interface ReferenzKette {
  /** The parents up to the first record, nearest first. */
  vorfahren: Rec[];
  /** The parts split off this record. */
  teile: Rec[];
}

/** The chain of references in both directions: the record's parents (up to the original) and its parts. */
export async function referenzKette<T extends Rec>(scope: TenantScope, store: VersionedStore<T>, record: T & Meta): Promise<ReferenzKette> {
  const table = store.spec.table;
  // One recursive query upward (a chain is short, but a loop must not hang: the depth is bounded).
  const { rows } = await scope.transaction((tx) => tx.knex.raw(
    `with recursive kette(nr, referenz_nachweis_nr, tiefe) as (
       select nr, referenz_nachweis_nr, 0 from ?? where mandant = ? and nr = ?
       union all
       select p.nr, p.referenz_nachweis_nr, k.tiefe + 1 from ?? p join kette k on p.nr = k.referenz_nachweis_nr and p.mandant = ? where k.tiefe < 50
     ) select nr, tiefe from kette where tiefe > 0 order by tiefe`,
    [table, scope.mandant, record.nr, table, scope.mandant],
  ));
  const nrs = (rows as { nr: string }[]).map((r) => r.nr);
  const vorfahren: Rec[] = nrs.length ? ((await scope.table(table).whereIn('nr', nrs).select('*')) as unknown as Rec[]).map((r) => store.fromRow(r)) : [];
  vorfahren.sort((a, b) => nrs.indexOf(String(a.nr)) - nrs.indexOf(String(b.nr)));
  const teile: Rec[] = ((await scope.table(table).where('referenz_nachweis_nr', record.nr).orderBy('created_at').orderBy('nr').select('*')) as unknown as Rec[]).map((r) => store.fromRow(r));
  return { vorfahren, teile };
}
