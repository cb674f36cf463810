// The demo data of the API contract: tenants DEMO and NORD and the six demo logins, their master data
// (stammdaten.ts), movement data (bewegungsdaten.ts) and certificates with their proofs (nachweise.ts).
// Idempotent: existing rows are left as they are, so running it twice changes nothing.
// Later features add their own seeds here.
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords.js';
import { seedBewegungsdaten } from './bewegungsdaten.js';
import { seedBilanzen } from './bilanzen.js';
import { seedLieferkette } from './lieferkette.js';
import { seedApiKeys } from './api-keys.js';
import { seedNachrichten } from './nachrichten.js';
import { seedNachweise } from './nachweise.js';
import { seedStammdaten } from './stammdaten.js';
import { seedThgAnzeige } from './thg-anzeige.js';
import { seedTankstelle } from './tankstelle.js';

export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

const READ_ALL = [1, 3, 5, 7, 9, 11, 13, 15, 16, 17, 18, 21, 23, 25];

interface SeedUser {
  login: string;
  password: string;
  email: string;
  vorname: string;
  nachname: string;
  adminKz?: boolean;
  supportKz?: boolean;
  mfaSecret?: string;
  tenants: { mandant: string; adminKz?: boolean; rollen?: number[]; standortNr?: string; standorte?: string[] }[];
}

export const DEMO_USERS: SeedUser[] = [
  {
    login: 'ADMIN', password: 'Admin12345', email: 'admin@demo-portal.example', vorname: 'Andrea', nachname: 'Albrecht',
    adminKz: true, tenants: [{ mandant: 'DEMO' }, { mandant: 'NORD' }],
  },
  {
    login: 'TADMIN', password: 'Tadmin12345', email: 'tadmin@demo-portal.example', vorname: 'Thomas', nachname: 'Teichmann',
    tenants: [{ mandant: 'DEMO', adminKz: true }],
  },
  {
    login: 'USER', password: 'User12345', email: 'user@demo-portal.example', vorname: 'Ulrike', nachname: 'Urban',
    tenants: [
      { mandant: 'DEMO', rollen: [...READ_ALL, 10, 14], standorte: ['1001', '1002', '1003'] },
      { mandant: 'NORD', rollen: [1] },
    ],
  },
  {
    login: 'LESER', password: 'Leser12345', email: 'leser@demo-portal.example', vorname: 'Lars', nachname: 'Lehmann',
    tenants: [{ mandant: 'DEMO', rollen: [1, 3], standortNr: '1001', standorte: ['1001'] }],
  },
  {
    login: 'SUPPORT', password: 'Support12345', email: 'support@demo-portal.example', vorname: 'Sabine', nachname: 'Sommer',
    supportKz: true, tenants: [{ mandant: 'DEMO' }],
  },
  {
    login: 'MFA', password: 'Mfa12345', email: 'mfa@demo-portal.example', vorname: 'Moritz', nachname: 'Fischer',
    mfaSecret: DEMO_TOTP_SECRET, tenants: [{ mandant: 'DEMO', rollen: READ_ALL }],
  },
];

const TENANTS = [
  {
    mandant: 'DEMO', name: 'Demo Energiehandel GmbH', email: 'kontakt@demo-energie.example', strasse: 'Am Sandtorkai',
    haus_nr: '41', plz: '20457', stadt: 'Hamburg', land: 'Deutschland', zertifizierungsnummer: 'EU-ISCC-Cert-DE100-10001',
  },
  {
    mandant: 'NORD', name: 'Nordsee Mineralöl AG', email: 'info@nordsee-mineraloel.example', strasse: 'Hafenstraße',
    haus_nr: '7', plz: '26382', stadt: 'Wilhelmshaven', land: 'Deutschland', zertifizierungsnummer: 'EU-ISCC-Cert-DE100-20002',
  },
];

export async function seedDemo(knex: Knex): Promise<{ usersCreated: number }> {
  let usersCreated = 0;
  await knex.transaction(async (trx) => {
    await trx('mandanten').insert(TENANTS).onConflict('mandant').ignore();
    await seedStammdaten(trx);
    await seedBewegungsdaten(trx, TENANTS.map((t) => t.mandant));
    await seedNachweise(trx, TENANTS.map((t) => t.mandant));
    await seedLieferkette(trx, TENANTS.map((t) => t.mandant));
    await seedBilanzen(trx, TENANTS.map((t) => t.mandant));
    await seedThgAnzeige(trx);
    await seedTankstelle(trx, TENANTS.map((t) => t.mandant));
    for (const u of DEMO_USERS) {
      const existing = await trx('benutzer').where({ login: u.login }).first('id');
      if (existing) continue;
      usersCreated++;
      const [{ id }] = await trx('benutzer')
        .insert({
          login: u.login, email: u.email, vorname: u.vorname, nachname: u.nachname,
          password_hash: await hashPassword(u.password), admin_kz: u.adminKz ?? false, support_kz: u.supportKz ?? false,
          mfa_secret: u.mfaSecret ?? null, mfa_enabled: Boolean(u.mfaSecret),
        })
        .returning('id');
      for (const t of u.tenants) {
        await trx('benutzer_mandanten').insert({ mandant: t.mandant, benutzer_id: id, admin_kz: t.adminKz ?? false });
        if (t.rollen?.length) {
          await trx('rollen').insert(t.rollen.map((typ) => ({ mandant: t.mandant, benutzer_id: id, typ, standort_nr: t.standortNr ?? null })));
        }
        if (t.standorte?.length) {
          await trx('benutzer_standorte').insert(t.standorte.map((nr) => ({ mandant: t.mandant, benutzer_id: id, standort_nr: nr })));
        }
      }
    }
    // After the users: messages name their authors and readers.
    await seedNachrichten(trx, TENANTS.map((t) => t.mandant));
    await seedApiKeys(trx, TENANTS.map((t) => t.mandant));
  });
  return { usersCreated };
}

export async function isEmpty(knex: Knex): Promise<boolean> {
  const row = await knex('mandanten').count<{ count: string }[]>({ count: '*' }).first();
  return Number(row?.count ?? 0) === 0;
}
