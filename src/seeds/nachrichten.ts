// The demo's messages (Nachrichten) and its last imports, so the header's unread count, the Nachrichten page and
// the dashboard's tiles show something real in both tenants:
// - DEMO: three messages valid today from its tenant administrator (one of them read by USER and ADMIN), one
//   that expired last month (shown to nobody but administrators, in their overview), and the system
//   administrator's message to all tenants (one row per tenant, one group), also in NORD;
// - NORD: a message of its own, unread.
// - DEMO's last imports: two movement-data imports as the import records them (its audit entry with the counts),
//   written by USER, so the dashboard's "Letzte Importe" has a story; their deliveries are the seeded ones.
// Dates are relative to today. Idempotent: a tenant whose demo messages exist is skipped.
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import { heuteInDeutschland } from '../features/zuordnung/service.js';

const AN_ALLE_GRUPPE = '5d1f2a8e-0c4b-4f7e-9a61-2b3c4d5e6f70';

const tage = (heute: string, n: number) => {
  const d = new Date(`${heute}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

interface SeedNachricht {
  titel: string;
  text: string;
  von: number;
  bis: number | null;
  autor: string;
  gruppe?: string;
  gelesenVon?: string[];
}

const AN_ALLE: SeedNachricht = {
  titel: 'Neu im Portal: das Dashboard mit Kennzahlen',
  text: 'Das Dashboard zeigt jetzt Ihre Ein- und Ablieferungen dieses und des letzten Monats, offene Lieferungen, den aktuellen Bestand je Standort, bald ablaufende Nachweise, offene Bilanzen und die THG-Einsparung dieses Jahres.\n\nJede Zahl führt zur gefilterten Liste, aus der sie stammt.',
  von: -2, bis: 28, autor: 'ADMIN', gruppe: AN_ALLE_GRUPPE, gelesenVon: ['ADMIN'],
};

const NACHRICHTEN: Record<string, SeedNachricht[]> = {
  DEMO: [
    {
      titel: 'Wartungsfenster am Samstag',
      text: 'Am Samstag zwischen 6:00 und 8:00 Uhr wird das Portal gewartet.\nIn dieser Zeit sind Importe nicht möglich.\n\nBitte planen Sie größere Importe für Freitag ein.',
      von: -5, bis: 9, autor: 'TADMIN', gelesenVon: ['USER', 'ADMIN'],
    },
    {
      titel: 'Jahresabschluss: Bilanzen bis zum 15. Januar schließen',
      text: 'Bitte schließen Sie alle Bilanzen des laufenden Jahres bis zum 15. Januar, damit die Nachweise rechtzeitig zur Quotenmeldung vorliegen.',
      von: -1, bis: 50, autor: 'TADMIN',
    },
    {
      titel: 'Neue Ansprechpartnerin für Nachweise',
      text: 'Fragen zu Nachweisen und Nachweisbescheinigungen beantwortet ab sofort Frau Weber (Durchwahl 214).',
      von: 0, bis: null, autor: 'TADMIN',
    },
    {
      titel: 'Umstellung der Tanklager-Nummern (erledigt)',
      text: 'Die Umstellung ist abgeschlossen. Diese Nachricht ist abgelaufen und wird nicht mehr angezeigt.',
      von: -60, bis: -30, autor: 'TADMIN',
    },
    AN_ALLE,
  ],
  NORD: [
    {
      titel: 'Inventur im Tanklager Wilhelmshaven',
      text: 'Die Inventur findet am Monatsende statt. Bitte erfassen Sie alle Bestände bis dahin.',
      von: -3, bis: 20, autor: 'ADMIN',
    },
    AN_ALLE,
  ],
};

const IMPORTE = [
  { token: '7b0c5e2a-1d3f-4a6b-8c9d-0e1f2a3b4c5d', tageZurueck: 3, entity: 'einlieferungen', after: { create: 18, update: 2, unchanged: 0, refused: 0, datei: 'einlieferungen-tanklager-hamburg.csv' } },
  { token: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b', tageZurueck: 1, entity: 'ablieferungen', after: { create: 12, update: 0, unchanged: 3, refused: 0, datei: 'ablieferungen-woche.xlsx' } },
];

export async function seedNachrichten(trx: Knex.Transaction, mandanten: string[], today = new Date()): Promise<void> {
  const heute = heuteInDeutschland(today);
  const ids = new Map<string, number>(
    ((await trx('benutzer').whereIn('login', ['ADMIN', 'TADMIN', 'USER']).select('id', 'login')) as { id: number; login: string }[]).map((b) => [b.login, Number(b.id)]),
  );
  for (const mandant of mandanten) {
    const liste = NACHRICHTEN[mandant];
    if (!liste || !(await trx('mandanten').where({ mandant }).first('mandant'))) continue;
    await setTenant(trx, mandant);
    if (await trx('nachrichten').where({ mandant }).first('id')) continue;
    for (const n of liste) {
      const [{ id }] = await trx('nachrichten').insert({
        mandant, titel: n.titel, text: n.text, gueltig_von: tage(heute, n.von), gueltig_bis: n.bis == null ? null : tage(heute, n.bis),
        gruppe: n.gruppe ?? null, erstellt_von: ids.get(n.autor) ?? null, erstellt_am: new Date(`${tage(heute, n.von)}T07:30:00Z`),
      }).returning('id');
      const leser = (n.gelesenVon ?? []).map((l) => ids.get(l)).filter((x): x is number => x !== undefined);
      if (leser.length) await trx('nachrichten_gelesen').insert(leser.map((benutzer_id) => ({ mandant, nachricht_id: id, benutzer_id })));
    }
  }
  if (mandanten.includes('DEMO') && ids.has('USER')) {
    for (const i of IMPORTE) {
      if (await trx('audit_log').where({ kind: 'bewegungsdaten.import', entity_id: i.token }).first('id')) continue;
      await trx('audit_log').insert({
        at: new Date(`${tage(heute, -i.tageZurueck)}T09:15:00Z`), mandant: 'DEMO', benutzer_id: ids.get('USER'), kind: 'bewegungsdaten.import',
        entity: i.entity, entity_id: i.token, after: JSON.stringify(i.after), ip: '127.0.0.1',
      });
    }
  }
}
