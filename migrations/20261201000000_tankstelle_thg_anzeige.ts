// The tenant settings of the filling-station view and the public THG display, and the dated factors of the
// display's equivalents (certificates-and-balances.md sections 5 and 6, docs/decisions.md "Tank traffic light"
// and "Public THG display").
//
// - mandanten.tank_reichweite_tage: a tank whose active delivery's certificates reach at least this many days
//   of use is "ausreichend" (default 14); tank_verbrauch_tage: the days of outbound deliveries that make the
//   daily use (default 14). Both per tenant, 1 to 365.
// - mandanten.thg_anzeige_token: the secret of the tenant's public display link /{lang}/thg-anzeige/{token};
//   null while the tenant has not published it (or revoked it). Unique across tenants: the link names the tenant.
// - gesetzeswerte of kind 'aequivalent': kg CO2eq of one unit of an everyday comparison (a car trip of 100 km,
//   a flight of 500 km, a kg of pork or beef), dated like the law's values so a better estimate is a new row
//   with a later valid-from date; the row's comment names the source shown on screen.
//
// No new table: `mandanten` is platform data outside row-level security (src/db/rls.ts lists why: tenants are
// looked up at sign-in and, here, by the public display's token before any tenant is known), and `gesetzeswerte`
// has no tenant at all. Tenant code still reads the two tank settings through its TenantScope.
import type { Knex } from 'knex';

export const AEQUIVALENT_BEZUEGE = ['auto_100km', 'flug_500km', 'schwein_kg', 'rind_kg'] as const;

const AB = '2015-01-01';
const SEED = [
  { bezug: 'auto_100km', wert: '21', kommentar: 'Kraftstoffbasiert: 7 L Benzin × 32 MJ/L × 93,3 g/MJ je Pkw; UBA: 15,4 kg je Person und 100 km' },
  { bezug: 'flug_500km', wert: '107', kommentar: 'UBA 2019, Inlandsflüge: 214 g je Personenkilometer' },
  { bezug: 'schwein_kg', wert: '12', kommentar: 'Poore & Nemecek 2018, Schweinefleisch' },
  { bezug: 'rind_kg', wert: '99.5', kommentar: 'Poore & Nemecek 2018, Rindfleisch' },
];

const ARTEN_ALT = ['fossiler_vergleichswert', 'basiswert', 'schwelle', 'quote', 'nachweis_ablauf'];
const ARTEN_NEU = [...ARTEN_ALT, 'aequivalent'];

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

async function gesetzeswertRegeln(knex: Knex, arten: readonly string[], mitAequivalent: boolean) {
  await knex.raw('alter table gesetzeswerte drop constraint gesetzeswerte_art, drop constraint gesetzeswerte_bezug');
  await knex.raw(`alter table gesetzeswerte
    add constraint gesetzeswerte_art check (art in (${list(arten)})),
    add constraint gesetzeswerte_bezug check (case art
      when 'schwelle' then bezug ~ '^\\d{4}-\\d{2}-\\d{2}$'
      when 'quote' then bezug ~ '^\\d{4}$' and bezug::int between 2000 and 2100
      ${mitAequivalent ? `when 'aequivalent' then bezug in (${list(AEQUIVALENT_BEZUEGE)})` : ''}
      else bezug = '' end)`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mandanten', (t) => {
    t.integer('tank_reichweite_tage').notNullable().defaultTo(14);
    t.integer('tank_verbrauch_tage').notNullable().defaultTo(14);
    t.string('thg_anzeige_token', 64).nullable().unique();
    t.timestamp('thg_anzeige_seit', { useTz: true }).nullable();
  });
  await knex.raw(`alter table mandanten
    add constraint mandanten_tank_tage_chk check (tank_reichweite_tage between 1 and 365 and tank_verbrauch_tage between 1 and 365),
    add constraint mandanten_thg_token_chk check (thg_anzeige_token is null or thg_anzeige_token ~ '^[A-Za-z0-9_-]{16,64}$')`);

  await gesetzeswertRegeln(knex, ARTEN_NEU, true);
  await knex('gesetzeswerte').insert(SEED.map((row) => ({ art: 'aequivalent', wert_text: null, gueltig_ab: AB, ...row })));
}

export async function down(knex: Knex): Promise<void> {
  await knex('gesetzeswerte').where({ art: 'aequivalent' }).delete();
  await gesetzeswertRegeln(knex, ARTEN_ALT, false);
  await knex.raw('alter table mandanten drop constraint mandanten_tank_tage_chk, drop constraint mandanten_thg_token_chk');
  await knex.schema.alterTable('mandanten', (t) => {
    t.dropColumn('tank_reichweite_tage');
    t.dropColumn('tank_verbrauch_tage');
    t.dropColumn('thg_anzeige_token');
    t.dropColumn('thg_anzeige_seit');
  });
}
