// Certificates (Nachweise: the full PoS record of one batch) and proofs for delivered quantities
// (Nachweisbescheinigungen). Both are versioned records under row-level security, addressed by number per
// tenant, with exact decimals. What money and law depend on is a constraint here as well as code:
// - a remaining quantity is never negative and never more than the quantity (`*_rest_chk`);
// - a part split off (Teilnachweis) refers to its parent in the same table (`referenz_nachweis_nr`), so the
//   chain of references cannot point to nothing;
// - the figures computed with the law values of the certificate's date (E, saving, threshold, t CO2eq, the
//   comparator and Basiswert used, the warnings) are stored with it, so a later law value never changes a
//   certificate that was saved before (docs/decisions.md).
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

const EMISSIONEN = ['eec', 'el', 'ep', 'etd', 'eu', 'esca', 'eccs', 'eccr', 'waerme_allokiert', 'strom_allokiert', 'gesamt_standardwert'];

function recordColumns(t: Knex.CreateTableBuilder, knex: Knex) {
  t.integer('version').notNullable().defaultTo(1);
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.integer('updated_by');
}

async function versions(knex: Knex, table: string) {
  await knex.schema.createTable(`${table}_versionen`, (t) => {
    t.string('mandant', 32).notNullable();
    t.string('nr', 32).notNullable();
    t.integer('version').notNullable();
    t.jsonb('data').notNullable();
    t.jsonb('changes').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('benutzer_id');
    t.string('quelle', 16);
    t.primary(['mandant', 'nr', 'version']);
  });
  await knex.raw(`alter table ?? add constraint ?? check (quelle in ('demo'))`, [`${table}_versionen`, `${table}_versionen_quelle_chk`]);
  await enableTenantRls(knex, `${table}_versionen`);
}

/** The list counts follow the table's changes (see 20261126010000_tabellenstaende). */
const countTrigger = (knex: Knex, table: string) =>
  knex.raw(`create constraint trigger ${table}_stand after insert or update or delete on ${table}
    deferrable initially deferred for each row execute function tabellenstand_erhoehen()`);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('nachweise', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    // Dokument
    t.date('ausstellungsdatum').notNullable();
    t.date('zeitraum_von');
    t.date('zeitraum_bis');
    t.string('zertifizierungssystem', 40).notNullable();
    t.string('schema', 20);
    t.string('referenz_pos_nr', 100);
    t.boolean('vorlaeufig').notNullable().defaultTo(false);
    t.boolean('red_ii_konform').notNullable().defaultTo(true);
    t.jsonb('datei');
    t.text('zusatzinfo');
    // Lieferung
    t.string('standort_nr', 32).notNullable();
    t.string('produkt_nr', 32).notNullable();
    t.string('produktgruppe', 20).notNullable();
    t.decimal('menge', 18, 3).notNullable();
    t.string('einheit', 4).notNullable();
    t.decimal('menge_verbleibend', 18, 3).notNullable();
    t.decimal('gesamt_liefermenge', 18, 3);
    t.decimal('dichte', 8, 4); // kg/L
    t.decimal('lcv', 10, 4); // MJ per unit of `einheit`
    t.decimal('biogehalt', 7, 4); // percent
    t.decimal('energiegehalt', 22, 4); // MJ
    t.date('lieferung_von');
    t.date('lieferung_bis');
    // Rohstoff und Herkunft
    t.string('rohstoff', 40).notNullable();
    t.string('biomasse_art', 100);
    t.string('biomasse_code', 40);
    t.string('herkunftsland', 2);
    t.boolean('abfall').notNullable().defaultTo(false);
    t.boolean('nachhaltig').notNullable().defaultTo(true);
    t.date('anlage_inbetriebnahme');
    // Emissionen (g CO2eq/MJ)
    for (const column of EMISSIONEN) t.decimal(column, 9, 3);
    // Lieferant und Empfänger
    t.string('lieferant', 200);
    t.string('lieferant_zertifikat_nr', 100);
    t.string('empfaenger', 200);
    t.string('vertrags_nr', 100);
    t.string('versandort', 200);
    t.string('empfangsort', 200);
    // Computed when saved, with the law values of the issue date.
    t.decimal('thg', 9, 2).notNullable();
    t.decimal('einsparung', 9, 2).notNullable();
    t.decimal('schwelle', 5, 2).notNullable();
    t.decimal('vergleichswert', 9, 3).notNullable();
    t.decimal('basiswert', 9, 3).notNullable();
    t.decimal('thg_minderung_t', 24, 6).notNullable();
    t.jsonb('hinweise').notNullable().defaultTo('[]');
    // Teilung and cancellation.
    t.string('referenz_nachweis_nr', 32);
    t.boolean('storniert').notNullable().defaultTo(false);
    recordColumns(t, knex);
    t.primary(['mandant', 'nr']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
    t.foreign(['mandant', 'produkt_nr']).references(['mandant', 'nr']).inTable('produkte').onUpdate('CASCADE');
    t.foreign(['mandant', 'referenz_nachweis_nr']).references(['mandant', 'nr']).inTable('nachweise').onUpdate('CASCADE');
  });
  await knex.raw(`alter table nachweise add constraint nachweise_menge_chk check (menge > 0)`);
  await knex.raw(`alter table nachweise add constraint nachweise_rest_chk check (menge_verbleibend >= 0 and menge_verbleibend <= menge)`);
  await knex.raw(`alter table nachweise add constraint nachweise_einheit_chk check (einheit in ('L','kg'))`);
  await knex.raw(`alter table nachweise add constraint nachweise_bio_chk check (biogehalt is null or biogehalt between 0 and 100)`);
  await knex.raw(`alter table nachweise add constraint nachweise_teil_chk check (referenz_nachweis_nr is null or referenz_nachweis_nr <> nr)`);
  await knex.raw('create index nachweise_datum_idx on nachweise (mandant, ausstellungsdatum desc, nr desc)');
  await knex.raw('create index nachweise_referenz_idx on nachweise (mandant, referenz_nachweis_nr) where referenz_nachweis_nr is not null');
  // Every filter and sort of the list through an index (list-plans.test.ts); the date breaks ties as the list does.
  for (const column of ['standort_nr', 'produktgruppe', 'rohstoff', 'zertifizierungssystem', 'vorlaeufig', 'storniert']) {
    await knex.raw(`create index nachweise_${column}_idx on nachweise (mandant, ${column}, ausstellungsdatum desc)`);
  }
  // The list's "mit Hinweisen" and "mit Rest" filters: as stored flags, so an index narrows by them (an index on
  // the expression itself is not used for a boolean condition).
  await knex.raw('alter table nachweise add column mit_hinweisen boolean generated always as (jsonb_array_length(hinweise) > 0) stored');
  await knex.raw('alter table nachweise add column mit_rest boolean generated always as (menge_verbleibend > 0) stored');
  for (const column of ['mit_hinweisen', 'mit_rest']) await knex.raw(`create index nachweise_${column}_idx on nachweise (mandant, ${column}, ausstellungsdatum desc)`);
  for (const column of ['menge_verbleibend', 'thg', 'einsparung']) await knex.raw(`create index nachweise_${column}_idx on nachweise (mandant, ${column}, nr)`);
  await enableTenantRls(knex, 'nachweise');
  await versions(knex, 'nachweise');
  await countTrigger(knex, 'nachweise');

  await knex.schema.createTable('nachweisbescheinigungen', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.string('nachweis_nr', 32).notNullable();
    t.date('lieferdatum').notNullable();
    t.decimal('volumen', 18, 3).notNullable();
    t.decimal('volumen_verbleibend', 18, 3).notNullable();
    t.string('einheit', 4).notNullable();
    t.string('standort_nr', 32).notNullable();
    t.string('produkt_nr', 32).notNullable();
    t.string('produktgruppe', 20).notNullable();
    // The certificate's characteristics, copied when the proof is made: they stay with its quantity.
    t.decimal('thg_emission', 9, 2).notNullable();
    t.decimal('nnw_anteil', 7, 4);
    t.decimal('nnw_energie', 22, 4);
    t.string('rohstoff', 40);
    t.string('anbauland', 2);
    t.string('biomasse_art', 100);
    t.string('biomasse_code', 40);
    t.boolean('attribut_annex_ix').notNullable().defaultTo(false);
    t.string('zertifizierungssystem', 40);
    t.string('nnw_produkt_nr', 32);
    t.string('nnw_produkt_name', 200);
    t.string('referenz_nachweis_nr', 32);
    t.text('kommentar');
    t.boolean('storniert').notNullable().defaultTo(false);
    recordColumns(t, knex);
    t.primary(['mandant', 'nr']);
    t.foreign(['mandant', 'nachweis_nr']).references(['mandant', 'nr']).inTable('nachweise').onUpdate('CASCADE');
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
    t.foreign(['mandant', 'produkt_nr']).references(['mandant', 'nr']).inTable('produkte').onUpdate('CASCADE');
    t.foreign(['mandant', 'referenz_nachweis_nr']).references(['mandant', 'nr']).inTable('nachweisbescheinigungen').onUpdate('CASCADE');
  });
  await knex.raw(`alter table nachweisbescheinigungen add constraint nachweisbescheinigungen_volumen_chk check (volumen > 0)`);
  await knex.raw(`alter table nachweisbescheinigungen add constraint nachweisbescheinigungen_rest_chk check (volumen_verbleibend >= 0 and volumen_verbleibend <= volumen)`);
  await knex.raw(`alter table nachweisbescheinigungen add constraint nachweisbescheinigungen_einheit_chk check (einheit in ('L','kg'))`);
  await knex.raw(`alter table nachweisbescheinigungen add constraint nachweisbescheinigungen_teil_chk check (referenz_nachweis_nr is null or referenz_nachweis_nr <> nr)`);
  await knex.raw('create index nachweisbescheinigungen_datum_idx on nachweisbescheinigungen (mandant, lieferdatum desc, nr desc)');
  await knex.raw('create index nachweisbescheinigungen_nachweis_idx on nachweisbescheinigungen (mandant, nachweis_nr)');
  for (const column of ['standort_nr', 'produktgruppe', 'rohstoff', 'storniert']) {
    await knex.raw(`create index nachweisbescheinigungen_${column}_idx on nachweisbescheinigungen (mandant, ${column}, lieferdatum desc)`);
  }
  await knex.raw('alter table nachweisbescheinigungen add column mit_rest boolean generated always as (volumen_verbleibend > 0) stored');
  await knex.raw('create index nachweisbescheinigungen_mit_rest_idx on nachweisbescheinigungen (mandant, mit_rest, lieferdatum desc)');
  for (const column of ['volumen_verbleibend', 'thg_emission']) {
    await knex.raw(`create index nachweisbescheinigungen_${column}_idx on nachweisbescheinigungen (mandant, ${column}, nr)`);
  }
  await knex.raw('create index nachweisbescheinigungen_referenz_idx on nachweisbescheinigungen (mandant, referenz_nachweis_nr) where referenz_nachweis_nr is not null');
  await enableTenantRls(knex, 'nachweisbescheinigungen');
  await versions(knex, 'nachweisbescheinigungen');
  await countTrigger(knex, 'nachweisbescheinigungen');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['nachweisbescheinigungen', 'nachweise']) {
    await knex.raw(`drop trigger if exists ${table}_stand on ${table}`);
    await knex.schema.dropTable(`${table}_versionen`);
    await knex.schema.dropTable(table);
  }
}
