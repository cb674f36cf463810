// The partner's rules are part of the partner's versioned record: `tauschpartner.regeln` holds them as of the
// current version (per location number: the rules in order of priority), so each rule change is a new partner
// version whose snapshot and changes show the rules. tauschpartner_regeln stays the working table; its values
// get the checks of spec section 5 ("priority required, and a valid bio quantity and/or bio content").
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tauschpartner', (t) => {
    t.jsonb('regeln'); // { "<standortNr>": [{ prioritaet, biogehalt, biomenge, biomengeEinheit }] }, null: no rules
  });
  await knex.raw(`alter table tauschpartner_regeln add constraint tauschpartner_regeln_prio_chk check (prioritaet >= 1)`);
  await knex.raw(`alter table tauschpartner_regeln add constraint tauschpartner_regeln_bio_chk check (biogehalt between 0 and 100)`);
  await knex.raw(`alter table tauschpartner_regeln add constraint tauschpartner_regeln_menge_chk check (biomenge >= 0)`);
  await knex.raw(
    `alter table tauschpartner_regeln add constraint tauschpartner_regeln_einheit_chk check (biomenge_einheit in ('L','kg') and biomenge is not null or biomenge_einheit is null and biomenge is null)`,
  );
  await knex.raw(`alter table tauschpartner_regeln add constraint tauschpartner_regeln_angabe_chk check (biogehalt is not null or biomenge is not null)`);
  // One rule per partner, location and priority: two would leave their order open.
  await knex.raw('create unique index tauschpartner_regeln_prio_uq on tauschpartner_regeln (mandant, partner_nr, standort_nr, prioritaet)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index tauschpartner_regeln_prio_uq');
  for (const c of ['prio', 'bio', 'menge', 'einheit', 'angabe']) {
    await knex.raw(`alter table tauschpartner_regeln drop constraint tauschpartner_regeln_${c}_chk`);
  }
  await knex.schema.alterTable('tauschpartner', (t) => {
    t.dropColumn('regeln');
  });
}
