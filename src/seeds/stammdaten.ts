// Demo master data for DEMO and NORD: about twelve locations each, 25 products over all six product groups and
// 30 partners with a few rules each, plus version 1 of every seeded record (so no history is ever empty).
// Everything is fixed data or drawn from a generator with a fixed seed: each run produces the same rows.
// One insert per table and tenant, all existing rows left alone (idempotent).
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import { DEMO_DATA, type VersionedStore } from '../db/versioned.js';
import { produktStore } from '../features/produkte/config.js';
import { standortStore } from '../features/standorte/config.js';
import { snapshotOf, type RegelInput } from '../features/tauschpartner/regeln.js';
import { tauschpartnerStore } from '../features/tauschpartner/store.js';

type Row = Record<string, unknown>;

// nr, name, street, house number, postcode, city, licence plate code, quota-obligated
type StandortSeed = [string, string, string, string, string, string, string, boolean];

const STANDORTE: Record<string, StandortSeed[]> = {
  DEMO: [
    ['1001', 'Tanklager Hamburg-Waltershof', 'Am Ölhafen', '12', '21129', 'Hamburg', 'HH', true],
    ['1002', 'Depot Hannover-Linden', 'Hafenstraße', '8', '30453', 'Hannover', 'H', true],
    ['1003', 'Tankstelle Bremen-Vegesack', 'Weserstraße', '141', '28757', 'Bremen', 'HB', false],
    ['1004', 'Tanklager Lübeck-Siems', 'Tanklagerweg', '4', '23569', 'Lübeck', 'HL', true],
    ['1005', 'Depot Rostock-Seehafen', 'Am Umschlagplatz', '17', '18147', 'Rostock', 'HRO', true],
    ['1006', 'Tanklager Magdeburg-Rothensee', 'Kanalstraße', '3', '39126', 'Magdeburg', 'MD', true],
    ['1007', 'Tankstelle Berlin-Spandau', 'Gewerbering', '60', '13599', 'Berlin', 'B', false],
    ['1008', 'Depot Leipzig-Nord', 'Industriestraße', '22', '04129', 'Leipzig', 'L', true],
    ['1009', 'Tanklager Duisburg-Ruhrort', 'Werftstraße', '5', '47119', 'Duisburg', 'DU', true],
    ['1010', 'Tankstelle Köln-Niehl', 'Raffineriestraße', '100', '50735', 'Köln', 'K', false],
    ['1011', 'Depot Frankfurt-Osthafen', 'Speicherweg', '210', '60314', 'Frankfurt am Main', 'F', true],
    ['1012', 'Tankstelle Kassel-Waldau', 'Lindenallee', '9', '34123', 'Kassel', 'KS', false],
  ],
  NORD: [
    ['2001', 'Tanklager Wilhelmshaven', 'Am Ölhafen', '1', '26384', 'Wilhelmshaven', 'WHV', true],
    ['2002', 'Depot Emden Hafen', 'Hafenstraße', '33', '26723', 'Emden', 'EMD', true],
    ['2003', 'Tanklager Brake', 'Kajenstraße', '6', '26919', 'Brake (Unterweser)', 'BRA', true],
    ['2004', 'Depot Oldenburg', 'Industriestraße', '48', '26135', 'Oldenburg', 'OL', true],
    ['2005', 'Tankstelle Leer', 'Ledastraße', '12', '26789', 'Leer', 'LER', false],
    ['2006', 'Tanklager Cuxhaven', 'Tanklagerweg', '2', '27472', 'Cuxhaven', 'CUX', true],
    ['2007', 'Depot Bremerhaven', 'Werftstraße', '77', '27568', 'Bremerhaven', 'HB', true],
    ['2008', 'Tankstelle Aurich', 'Gewerbering', '15', '26605', 'Aurich', 'AUR', false],
    ['2009', 'Depot Nordenham', 'Kanalstraße', '9', '26954', 'Nordenham', 'BRA', true],
    ['2010', 'Tankstelle Jever', 'Lindenallee', '21', '26441', 'Jever', 'FRI', false],
    ['2011', 'Tanklager Stade', 'Am Umschlagplatz', '4', '21683', 'Stade', 'STD', true],
    ['2012', 'Depot Papenburg', 'Speicherweg', '30', '26871', 'Papenburg', 'EL', true],
  ],
};

// nr, name, group, bio content %, LCV, unit, product type, description, active. Blends have the volume-weighted
// LCV of their parts (e.g. Super E10: 0.9 × 32 + 0.1 × 21 = 30.9 MJ/L).
type ProduktSeed = [string, string, string, string, string, 'MJ/kg' | 'MJ/L', string | null, string | null, boolean];

const PRODUKTE: ProduktSeed[] = [
  ['P001', 'Diesel B7', 'diesel', '7', '35.79', 'MJ/L', 'EN 590', 'Dieselkraftstoff mit bis zu 7 % FAME', true],
  ['P002', 'Diesel B7 Winter', 'diesel', '7', '35.79', 'MJ/L', 'EN 590, Winterware', 'Kältefest bis −20 °C (CFPP)', true],
  ['P003', 'Diesel B0', 'diesel', '0', '36', 'MJ/L', 'EN 590', 'Ohne Biokomponente, z. B. für Notstromaggregate', true],
  ['P004', 'Diesel B10', 'diesel', '10', '35.7', 'MJ/L', 'EN 16734', 'Dieselkraftstoff mit bis zu 10 % FAME', true],
  ['P005', 'Diesel R33', 'diesel', '33', '35.27', 'MJ/L', 'EN 590', '26 % HVO und 7 % FAME aus Reststoffen', true],
  ['P006', 'Premium-Diesel', 'diesel', '7', '35.79', 'MJ/L', 'EN 590, Premium', 'Mit Additivpaket', true],
  ['P007', 'Diesel B5 (Altbestand)', 'diesel', '5', '35.85', 'MJ/L', 'EN 590', 'Auslaufartikel', false],
  ['P008', 'Super E5', 'benzin', '5', '31.45', 'MJ/L', 'EN 228, 95 ROZ', null, true],
  ['P009', 'Super E10', 'benzin', '10', '30.9', 'MJ/L', 'EN 228, 95 ROZ', null, true],
  ['P010', 'Super Plus E5', 'benzin', '5', '31.45', 'MJ/L', 'EN 228, 98 ROZ', null, true],
  ['P011', 'Super E0', 'benzin', '0', '32', 'MJ/L', 'EN 228, 95 ROZ', 'Ohne Ethanol, für Oldtimer und Kleingeräte', true],
  ['P012', 'Normalbenzin E5', 'benzin', '5', '43', 'MJ/kg', 'EN 228, 91 ROZ', null, true],
  ['P013', 'Biodiesel B100 (FAME)', 'biodiesel', '100', '33', 'MJ/L', 'EN 14214', 'Fettsäuremethylester', true],
  ['P014', 'RME (Rapsmethylester)', 'biodiesel', '100', '37', 'MJ/kg', 'EN 14214', 'Aus Raps', true],
  ['P015', 'UCOME (Altspeiseöl-Methylester)', 'biodiesel', '100', '33', 'MJ/L', 'EN 14214', 'Aus gebrauchtem Speiseöl, Anhang IX Teil B', true],
  ['P016', 'Biodiesel B30', 'biodiesel', '30', '35.1', 'MJ/L', 'EN 16709', 'Für Fuhrparks mit Freigabe', true],
  ['P017', 'HVO100', 'hvo', '100', '34', 'MJ/L', 'EN 15940', 'Hydriertes Pflanzenöl', true],
  ['P018', 'HVO100 Winter', 'hvo', '100', '34', 'MJ/L', 'EN 15940, Winterware', 'Kältefest bis −22 °C (CFPP)', true],
  ['P019', 'HVO aus Reststoffen', 'hvo', '100', '44', 'MJ/kg', 'EN 15940', 'Aus Altspeiseöl und tierischen Fetten', true],
  ['P020', 'HVO-Blend 50', 'hvo', '50', '35', 'MJ/L', 'EN 15940', '50 % HVO, 50 % Diesel', true],
  ['P021', 'Bioethanol E85', 'bioethanol', '85', '22.65', 'MJ/L', 'EN 15293', 'Für Flexible-Fuel-Fahrzeuge', true],
  ['P022', 'Bioethanol E100', 'bioethanol', '100', '21', 'MJ/L', 'EN 15376', 'Zum Beimischen, denaturiert', true],
  ['P023', 'Bioethanol aus Zuckerrüben', 'bioethanol', '100', '27', 'MJ/kg', 'EN 15376', null, true],
  ['P024', 'Rapsöl-Kraftstoff', 'pflanzenoel', '100', '34', 'MJ/L', 'DIN 51605', 'Für Landmaschinen mit Freigabe', true],
  ['P025', 'Pflanzenöl-Kraftstoff (Sonnenblume)', 'pflanzenoel', '100', '37', 'MJ/kg', 'DIN 51605', null, true],
];

// name, street, postcode, city, group
type PartnerSeed = [string, string, string, string, string];

const PARTNER: PartnerSeed[] = [
  ['Hansa Mineralöl Handels-GmbH', 'Kaistraße', '20457', 'Hamburg', 'Mineralölhandel'],
  ['Nordtank Energiehandel GmbH & Co. KG', 'Am Speicher', '28217', 'Bremen', 'Mineralölhandel'],
  ['Weser-Ems Kraftstoffe GmbH', 'Ammerländer Heerstraße', '26129', 'Oldenburg', 'Mineralölhandel'],
  ['Elbtal Petrol Vertrieb GmbH', 'Hafenweg', '01067', 'Dresden', 'Mineralölhandel'],
  ['Rhein-Main Energie Vertrieb GmbH', 'Mainkai', '60311', 'Frankfurt am Main', 'Mineralölhandel'],
  ['Agrarenergie Niedersachsen eG', 'Raiffeisenstraße', '29525', 'Uelzen', 'Landwirtschaft'],
  ['Heidekraft Biokraftstoffe GmbH', 'Am Bahnhof', '21335', 'Lüneburg', 'Biokraftstoffhersteller'],
  ['Sachsen Treibstoff AG', 'Torgauer Straße', '04318', 'Leipzig', 'Mineralölhandel'],
  ['Bergmann & Söhne Brennstoffe KG', 'Lindenstraße', '44135', 'Dortmund', 'Brennstoffhandel'],
  ['Krüger Energie GmbH', 'Schulstraße', '24103', 'Kiel', 'Brennstoffhandel'],
  ['Havelland Tankdienst GmbH', 'Brandenburger Straße', '14467', 'Potsdam', 'Tankstellenbetreiber'],
  ['Ostsee Bunker Service GmbH', 'Am Strom', '18119', 'Rostock', 'Schiffsversorgung'],
  ['Altmark Bioenergie GmbH', 'Gardelegener Straße', '39576', 'Stendal', 'Biokraftstoffhersteller'],
  ['Münsterland Agrarhandel eG', 'Kornweg', '48143', 'Münster', 'Landwirtschaft'],
  ['Fuhrpark Service Nord GmbH', 'Logistikring', '22113', 'Hamburg', 'Spedition'],
  ['Spedition Hinrichs GmbH & Co. KG', 'Industrieweg', '26603', 'Aurich', 'Spedition'],
  ['Vogt Mineralöle e. K.', 'Marktstraße', '34117', 'Kassel', 'Brennstoffhandel'],
  ['Rapsmühle Mecklenburg GmbH', 'Mühlenweg', '19053', 'Schwerin', 'Biokraftstoffhersteller'],
  ['Grünkraft Raffinerie GmbH', 'Chemiestraße', '06217', 'Merseburg', 'Raffinerie'],
  ['Isar Tank GmbH', 'Landshuter Allee', '80637', 'München', 'Tankstellenbetreiber'],
  ['Schwaben Energiehandel GmbH', 'Neckarstraße', '70190', 'Stuttgart', 'Mineralölhandel'],
  ['Westerwald Brennstoff GmbH', 'Bahnhofstraße', '56410', 'Montabaur', 'Brennstoffhandel'],
  ['Emsland Bio-Ethanol GmbH', 'Zum Hafen', '49716', 'Meppen', 'Biokraftstoffhersteller'],
  ['Lausitz Kraftstoff Vertrieb GmbH', 'Spremberger Straße', '03046', 'Cottbus', 'Mineralölhandel'],
  ['Kanal-Tank Duisburg GmbH', 'Am Schleusenkanal', '47059', 'Duisburg', 'Tankstellenbetreiber'],
  ['Saale Agrarenergie eG', 'Feldstraße', '06108', 'Halle (Saale)', 'Landwirtschaft'],
  ['Harz Mineralöl GmbH', 'Bergstraße', '38640', 'Goslar', 'Mineralölhandel'],
  ['Förde Logistik GmbH', 'Hafendamm', '24937', 'Flensburg', 'Spedition'],
  ['Oberrhein Biodiesel GmbH', 'Rheinhafenstraße', '76189', 'Karlsruhe', 'Biokraftstoffhersteller'],
  ['Thüringer Tankstellen GmbH', 'Erfurter Landstraße', '99086', 'Erfurt', 'Tankstellenbetreiber'],
];

/** mulberry32: a small generator with a fixed seed, so the demo data is the same on every run. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)],
    /** The first `n` of a shuffled copy (Fisher–Yates). */
    sample: <T>(list: readonly T[], n: number) => {
      const copy = [...list];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, n);
    },
  };
}

const slug = (name: string) =>
  name.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss')
    .replace(/\b(gmbh|co|kg|ag|eg|e\. ?k)\b/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

/** Partners of a tenant with their rules over the tenant's locations (one to three locations each). */
function partnersOf(mandant: string, standorte: string[], seed: number) {
  const rnd = generator(seed);
  const partners: Row[] = [];
  const regeln: Row[] = [];
  PARTNER.forEach(([name, strasse, plz, stadt, gruppe], i) => {
    const nr = `TP${String(i + 1).padStart(3, '0')}`;
    const own: RegelInput[] = [];
    const places = rnd.sample(standorte, rnd.int(1, 3));
    for (const standortNr of places) {
      const kind = rnd.int(0, 2); // 0: content only, 1: quantity only, 2: both
      own.push({
        standortNr,
        prioritaet: rnd.int(1, 5),
        biogehalt: kind === 1 ? null : rnd.pick(['5', '7', '10', '25', '33', '100']),
        biomenge: kind === 0 ? null : String(rnd.int(2, 500) * 500),
        biomengeEinheit: kind === 0 ? null : rnd.pick(['L', 'L', 'L', 'kg'] as const),
      });
    }
    partners.push({
      mandant, nr, name, strasse, haus_nr: String(rnd.int(1, 180)), plz, stadt, land: 'Deutschland',
      email: `${rnd.pick(['disposition', 'einkauf', 'info', 'vertrieb'])}@${slug(name)}.example`, gruppe,
      vertrag: `TV-${rnd.int(2022, 2025)}-${String(rnd.int(1, 9999)).padStart(4, '0')}`,
      // The rules as the partner's version holds them (regeln.ts), as JSON text for the jsonb column.
      regeln: own.length ? JSON.stringify(snapshotOf(own)) : null,
    });
    for (const r of own) {
      regeln.push({
        mandant, partner_nr: nr, standort_nr: r.standortNr, prioritaet: r.prioritaet, biogehalt: r.biogehalt, biomenge: r.biomenge, biomenge_einheit: r.biomengeEinheit,
      });
    }
  });
  return { partners, regeln };
}

/** Version 1 of every seeded record still at version 1 that has none (older databases had none for locations). */
export async function firstVersions<T extends Record<string, unknown>>(trx: Knex.Transaction, store: VersionedStore<T>, keys: { mandant: string; nr: string }[]) {
  const table = store.spec.table;
  const rows: Row[] = await trx(table)
    .where('version', 1)
    .where((w) => {
      for (const mandant of new Set(keys.map((k) => k.mandant))) w.orWhere((o) => o.where('mandant', mandant).whereIn('nr', keys.filter((k) => k.mandant === mandant).map((k) => k.nr)));
    })
    .select('*');
  if (!rows.length) return;
  const versions = rows.map((row) => {
    const record = store.fromRow(row) as Row;
    const changes = Object.keys(store.spec.fields)
      .filter((f) => record[f] !== null && record[f] !== '')
      .map((f) => ({ field: f, before: null, after: record[f] }));
    return { mandant: row.mandant, nr: row.nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), benutzer_id: null, quelle: DEMO_DATA, at: row.created_at };
  });
  await trx(`${table}_versionen`).insert(versions).onConflict(['mandant', 'nr', 'version']).ignore();
}

/**
 * Master data for the given tenants (default the demo tenants). A tenant without a list of its own (a
 * benchmark tenant) gets DEMO's locations, under its own tenant id. Tenant by tenant: the tables are under
 * row-level security, which binds the owner who seeds too.
 */
export async function seedStammdaten(trx: Knex.Transaction, mandanten: string[] = Object.keys(STANDORTE)): Promise<void> {
  for (const [i, mandant] of mandanten.entries()) {
    await setTenant(trx, mandant);
    await seedTenant(trx, mandant, 20261122 + i);
  }
}

async function seedTenant(trx: Knex.Transaction, mandant: string, seed: number): Promise<void> {
  const list = STANDORTE[mandant] ?? STANDORTE.DEMO;
  const standorte = list.map(([nr, name, strasse, hausNr, plz, stadt, code, quota], i) => ({
    mandant, nr, name, strasse, haus_nr: hausNr, plz, stadt, land: 'Deutschland', code, anlage: `DE-${code}-${String(i + 1).padStart(4, '0')}`, quota,
  }));
  const produkte = PRODUKTE.map(([nr, name, produktgruppe, biogehalt, lcv, lcvEinheit, produkttyp, beschreibung, aktiv]) => ({
    mandant, nr, name, produktgruppe, biogehalt, lcv, lcv_einheit: lcvEinheit, produkttyp, beschreibung, status: aktiv ? 'aktiv' : 'inaktiv',
  }));
  const partner = partnersOf(mandant, list.map(([nr]) => nr), seed);

  await trx('standorte').insert(standorte).onConflict(['mandant', 'nr']).ignore();
  await trx('produkte').insert(produkte).onConflict(['mandant', 'nr']).ignore();
  // Rules only for partners created now: a later run must not bring back rules a user deleted.
  const created: { mandant: string; nr: string }[] = await trx('tauschpartner')
    .insert(partner.partners)
    .onConflict(['mandant', 'nr'])
    .ignore()
    .returning(['mandant', 'nr']);
  const isNew = new Set(created.map((c) => `${c.mandant}|${c.nr}`));
  const regeln = partner.regeln.filter((r) => isNew.has(`${r.mandant}|${r.partner_nr}`));
  if (regeln.length) await trx('tauschpartner_regeln').insert(regeln);

  const keys = (rows: Row[]) => rows.map((r) => ({ mandant: String(r.mandant), nr: String(r.nr) }));
  await firstVersions(trx, standortStore, keys(standorte));
  await firstVersions(trx, produktStore, keys(produkte));
  await firstVersions(trx, tauschpartnerStore, keys(partner.partners));
}
