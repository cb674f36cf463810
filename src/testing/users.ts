// A normal user of one tenant with the given role rows, for tests of rights (what a role type allows, at which
// locations). The password is hashed once per call; give all of a file's users the same one.
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords.js';

export async function createUserWithRoles(knex: Knex, login: string, password: string, rollen: { typ: number; standortNr: string | null }[], mandant = 'DEMO'): Promise<number> {
  const [{ id }] = await knex('benutzer')
    .insert({ login, email: `${login.toLowerCase()}@demo-portal.example`, vorname: login, nachname: 'Test', password_hash: await hashPassword(password) })
    .returning('id');
  await knex('benutzer_mandanten').insert({ mandant, benutzer_id: id, admin_kz: false });
  if (rollen.length) await knex('rollen').insert(rollen.map((r) => ({ mandant, benutzer_id: id, typ: r.typ, standort_nr: r.standortNr })));
  return Number(id);
}
