// Tauschpartner (exchange partners): number, name, address, e-mail, group and contract number, plus their rules
// per location (regeln.ts), which are edited on the partner's detail page and are part of each partner version.
// Partners themselves are not bound to a location; their rules are, and a user limited to some locations sees
// and changes only the rules of those.
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import type { ListDefinition } from '../../records/list/engine.js';
import { referencedByMovementData } from '../bewegungsdaten/references.js';
import type { EntityConfig } from '../../records/entity.js';
import { statusAction } from '../../records/actions.js';
import { addressFormFields } from '../stammdaten/address.js';
import { formatSnapshot, regelnOf, restrictSnapshot, snapshotWithSpecNames, standortChoices } from './regeln.js';
import { regelnRoutes } from './regeln-routes.js';
import { PARTNER_API_ALIASES, TauschpartnerSchema, VERTRAG_KINDS, tauschpartnerStore, type Tauschpartner } from './store.js';

const list: ListDefinition<Tauschpartner & Meta> = {
  id: 'tauschpartner',
  columns: [
    { key: 'nr', label: 'records:fields.nr', sql: 't.nr', href: (r, lang) => `/${lang}/stammdaten/tauschpartner/${encodeURIComponent(r.nr)}` },
    { key: 'name', label: 'tauschpartner:fields.name', sql: 'lower(t.name)' },
    { key: 'strasse', label: 'tauschpartner:fields.strasse', csvOnly: true },
    { key: 'hausNr', label: 'tauschpartner:fields.hausNr', csvOnly: true },
    { key: 'plz', label: 'tauschpartner:fields.plz', sql: 't.plz' },
    { key: 'stadt', label: 'tauschpartner:fields.stadt', sql: 'lower(t.stadt)' },
    { key: 'land', label: 'tauschpartner:fields.land', csvOnly: true },
    { key: 'email', label: 'tauschpartner:fields.email', csvOnly: true },
    { key: 'gruppe', label: 'tauschpartner:fields.gruppe', sql: 'lower(t.gruppe)' },
    { key: 'vertrag', label: 'tauschpartner:fields.vertrag', sql: 't.vertrag' },
    { key: 'status', label: 'records:fields.status', sql: 't.status', badge: (r) => ({ label: `records:status.${r.status}`, variant: r.status === 'aktiv' ? 'success' : 'neutral' }) },
  ],
  filters: [
    { key: 'gruppe', label: 'tauschpartner:fields.gruppe', kind: 'text', sql: 't.gruppe' },
    { key: 'stadt', label: 'tauschpartner:fields.stadt', kind: 'text', sql: 't.stadt' },
    { key: 'status', label: 'records:fields.status', kind: 'select', sql: 't.status', options: [{ value: 'aktiv', label: 'records:status.aktiv' }, { value: 'inaktiv', label: 'records:status.inaktiv' }] },
  ],
  search: ['t.nr', 't.name', 't.stadt', 't.gruppe', 't.vertrag', 't.email'],
  defaultSort: { key: 'nr', dir: 'asc' },
  tieBreaker: 't.nr',
  query: (scope) => scope.table('tauschpartner', 't').select('t.*'),
  // The list and its CSV leave the rules out: they belong to locations the user may not see (GET …/regeln).
  toRow: (row) => {
    const { regeln: _regeln, ...partner } = tauschpartnerStore.fromRow(row);
    return partner as Tauschpartner & Meta;
  },
};

async function referenced(scope: TenantScope, nr: string): Promise<boolean> {
  // Deliveries refer to partners (balances will too). The partner's own rules go with it (they are part of
  // the record), but a user limited to some locations may not delete a partner whose rules at other
  // locations they cannot see.
  if (await referencedByMovementData(scope, 'partnerNr', nr)) return true;
  if (scope.standorte === 'all') return false;
  const rules = scope.table('tauschpartner_regeln').where({ partner_nr: nr });
  const elsewhere = scope.standorte.length ? rules.whereNotIn('standort_nr', scope.standorte as string[]) : rules;
  return Boolean(await elsewhere.first('id'));
}

export const tauschpartnerConfig: EntityConfig<Tauschpartner> = {
  resource: 'tauschpartner',
  path: 'stammdaten/tauschpartner',
  area: 'tauschpartner',
  ns: 'tauschpartner',
  store: tauschpartnerStore,
  schema: TauschpartnerSchema,
  list,
  form: [
    { name: 'name', label: 'tauschpartner:fields.name', kind: 'text', required: true, maxLength: 200, autocomplete: 'organization' },
    { name: 'gruppe', label: 'tauschpartner:fields.gruppe', kind: 'text', maxLength: 100, hint: 'tauschpartner:hints.gruppe' },
    { name: 'vertrag', label: 'tauschpartner:fields.vertrag', kind: 'text', maxLength: 100 },
    { name: 'vertragDatei', label: 'tauschpartner:fields.vertragDatei', kind: 'file', file: { kinds: VERTRAG_KINDS } },
    { name: 'email', label: 'tauschpartner:fields.email', kind: 'email', maxLength: 254, autocomplete: 'email' },
    ...addressFormFields('tauschpartner'),
  ],
  removable: { referenced },
  actions: [statusAction()],
  restrict: (scope, field, value) => (field === 'regeln' ? restrictSnapshot(scope, value) : value),
  // The rules section below the form: the rules of the user's locations, and a form for those they may change.
  async detailLocals({ scope, editScope, record, query }) {
    if (!record) return {};
    const regeln = (await regelnOf(scope, record.nr)).map((r) => ({ ...r, editable: editScope.allowsStandort(r.standortNr) }));
    const wanted = Number(query.regel);
    const editing = regeln.find((r) => r.id === wanted && r.editable);
    return {
      extraSection: '../tauschpartner/regeln',
      regeln,
      regelnLimited: scope.standorte !== 'all',
      regelStandorte: await standortChoices(editScope, regeln.filter((r) => r.editable).map((r) => r.standortNr)),
      regelForm: editing ? { id: editing.id, values: editing, fromRecord: true, errors: {} } : { id: null, values: {}, errors: {} },
    };
  },
  // The rules snapshot in a version, as lines of words ("Standort 1001, Priorität 1: Biogehalt 7 %").
  formatValue: (field, value, h) => (field === 'regeln' ? formatSnapshot(value, h.fmt, h.t) : undefined),
  extraRoutes: regelnRoutes,
  // The spec's names on the API: the partner's `group`, and each rule's `priority` in the rules snapshot (the
  // stored names stay beside them for now; docs/decisions.md, "Field names of the API").
  api: {
    aliases: PARTNER_API_ALIASES,
    present: (partner) => (partner.regeln ? { regeln: snapshotWithSpecNames(partner.regeln) } : {}),
    fields: { regeln: z.union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())]).nullable() },
  },
};
