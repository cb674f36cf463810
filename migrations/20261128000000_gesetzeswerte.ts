// Values fixed by law that the GHG computations need (fossil comparator, THG-quota Basiswert, minimum savings by
// the plant's start of operation, the quota per year, the day a certificate's rest expires), as dated settings:
// a change in the law is a new row with a later `gueltig_ab`, never a change in code. Every computation takes
// the rows valid on its date (src/features/gesetzeswerte/service.ts, src/domain/gesetzeswerte.ts).
//
// Platform data, not a tenant's: no `mandant` column, so no row-level security. Everyone reads it (the app
// role too, inside tenant transactions, where the certificates are computed); only the system administrators'
// service writes it, as the connecting user. The app role therefore gets SELECT only: tenant work cannot change
// the law, even by mistake.
//
// The rows inserted here are the seed: the only place the values appear as literals.
import type { Knex } from 'knex';
import { APP_ROLE } from '../src/db/rls.js';

const ARTEN = ['fossiler_vergleichswert', 'basiswert', 'schwelle', 'quote', 'nachweis_ablauf'];

/** The law as of the portal's first values (docs/decisions.md, "Legal values"). */
const AB = '2015-01-01';
const RED_II_ANHANG_V = 'RED II (Richtlinie (EU) 2018/2001) Anhang V Teil C Nr. 19';
const BIMSCHG_37A = '§ 37a BImSchG, 38. BImSchV';
const RED_II_ART_29 = 'RED II (Richtlinie (EU) 2018/2001) Art. 29 Abs. 10';
const QUOTE = '§ 37a Abs. 4 BImSchG';

const SEED = [
  { art: 'fossiler_vergleichswert', bezug: '', wert: '94', kommentar: `${RED_II_ANHANG_V}: fossiler Vergleichswert EF für Kraftstoffe` },
  { art: 'basiswert', bezug: '', wert: '94.1', kommentar: `${BIMSCHG_37A}: Basiswert der THG-Quote` },
  { art: 'schwelle', bezug: '0001-01-01', wert: '50', kommentar: `${RED_II_ART_29}: Anlagen in Betrieb bis 05.10.2015` },
  { art: 'schwelle', bezug: '2015-10-06', wert: '60', kommentar: `${RED_II_ART_29}: Anlagen in Betrieb vom 06.10.2015 bis 31.12.2020` },
  { art: 'schwelle', bezug: '2021-01-01', wert: '65', kommentar: `${RED_II_ART_29}: Anlagen in Betrieb ab 01.01.2021` },
  ...([['2022', '7'], ['2023', '8'], ['2024', '9.25'], ['2025', '10.5'], ['2026', '12'], ['2027', '14.5'], ['2028', '17.5'], ['2029', '21'], ['2030', '25']] as const)
    .map(([jahr, wert]) => ({ art: 'quote', bezug: jahr, wert, kommentar: QUOTE })),
  { art: 'nachweis_ablauf', bezug: '', wert_text: '04-15', kommentar: 'Meldefrist der THG-Quote (15. April des Folgejahres)' },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('gesetzeswerte', (t) => {
    t.increments('id');
    t.string('art', 32).notNullable();
    // The extra key of a kind: a schwelle's plant date (ISO), a quote's year; '' for the kinds without one.
    t.string('bezug', 10).notNullable().defaultTo('');
    t.date('gueltig_ab').notNullable();
    // A number for every kind but nachweis_ablauf, whose value is a day of the year ('MM-DD').
    t.decimal('wert', 12, 4).nullable();
    t.string('wert_text', 5).nullable();
    t.text('kommentar').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('created_by').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('updated_by').nullable();
    t.unique(['art', 'bezug', 'gueltig_ab']);
  });
  // The rules of the input (src/features/gesetzeswerte/schema.ts) as constraints too, so no other writer can
  // store a value a computation would trip over.
  await knex.raw(`alter table gesetzeswerte
    add constraint gesetzeswerte_art check (art in (${ARTEN.map((a) => `'${a}'`).join(', ')})),
    add constraint gesetzeswerte_bezug check (case art
      when 'schwelle' then bezug ~ '^\\d{4}-\\d{2}-\\d{2}$'
      when 'quote' then bezug ~ '^\\d{4}$' and bezug::int between 2000 and 2100
      else bezug = '' end),
    add constraint gesetzeswerte_wert check (case art
      when 'nachweis_ablauf' then wert is null and wert_text ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$'
      when 'schwelle' then wert_text is null and wert between 0 and 100
      when 'quote' then wert_text is null and wert between 0 and 100
      else wert_text is null and wert > 0 end)`);
  await knex.raw(`revoke insert, update, delete, truncate on gesetzeswerte from ${APP_ROLE}`);
  await knex.raw(`grant select on gesetzeswerte to ${APP_ROLE}`);
  // The page's history reads the audit entries of this table, newest first; among the sign-ins and record
  // changes they are rare, so without an index that read would walk the whole log. Partial: no cost for others.
  await knex.raw(`create index audit_log_gesetzeswert_idx on audit_log (id) where entity = 'gesetzeswert'`);
  await knex('gesetzeswerte').insert(SEED.map((row) => ({ wert: null, wert_text: null, ...row, gueltig_ab: AB })));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists audit_log_gesetzeswert_idx');
  await knex.schema.dropTable('gesetzeswerte');
}
