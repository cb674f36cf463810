// The Tankstelle page hands its island (islands/tankstelle) what it needs: where the page stands, the user's date
// format and time zone, the badge variants, and every text in the page's language with its placeholders kept for
// the browser; the island's code and React are preloaded on this page only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.js';
import { loadAssets } from '../../http/assets.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn } from '../../testing/session.js';
import type { InselProps } from './insel.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PFAD = 'bewegungsdaten/tankstelle-bestand';

/** The island's element and its props from a page. */
function insel(html: string): InselProps {
  const m = /<div id="tankstelle-ansicht" class="tankstelle" data-island="tankstelle" data-props='([^']*)'>/.exec(html);
  expect(m, 'the mount point').not.toBeNull();
  const decoded = m![1].replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return JSON.parse(decoded) as InselProps;
}

describe('the Tankstelle island\'s props', () => {
  it('name the location, view and product the page shows, and the texts in German with their placeholders', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const res = await agent.get(`/de/${PFAD}?standort=1002&ansicht=lieferkette`);
    expect(res.status).toBe(200);
    const p = insel(res.text);
    const tanks = (await agent.get('/api/tankstelle?standortNr=1002').set('X-Mandant', 'DEMO')).body.tanks as { produktNr: string }[];
    // The chain without a product asked for: the first tank's, as the page shows it.
    expect(p).toMatchObject({ lang: 'de', standortNr: '1002', ansicht: 'lieferkette', produktNr: tanks[0].produktNr, datumsformat: 'dd.MM.yyyy', zeitzone: 'Europe/Berlin' });
    expect(p.varianten).toEqual({ gruen: 'success', gelb: 'warning', rot: 'error', grau: 'neutral', blau: 'info' });
    expect(p.labels.laden).toEqual({
      fehler: 'Die Daten der Tankstelle konnten nicht geladen werden.',
      erneut: 'Erneut versuchen',
      laedt: 'Wird geladen …',
      geladen: '{ansicht} von {standort} geladen.',
      aktualisiert: 'Aktualisiert um {zeit}',
    });
    expect(p.labels.tank.tage).toEqual({ one: '{count} Tag', other: '{count} Tage' });
    expect(p.labels.tank.gauge).toBe('Füllstand {produkt}: {wert} %');
    expect(p.labels.ansichten).toEqual({ tanks: 'Tanks', zapfsaeulen: 'Zapfsäulen', lieferkette: 'Lieferkette' });
    expect(p.labels.legende.ampeln.map((a) => [a.ampel, a.text, a.icon, a.variante])).toEqual([
      ['keine_lieferungen', 'Keine Lieferungen', 'circle', 'neutral'],
      ['keine_aktive_lieferung', 'Keine aktive Lieferung', 'minus', 'neutral'],
      ['vorlaeufiges_zertifikat', 'Vorläufiges Zertifikat', 'clock', 'info'],
      ['ausreichend', 'Ausreichend gedeckt', 'check', 'success'],
      ['ausreichend_mit_nachfolger', 'Ausreichend, Nachfolger vorhanden', 'arrow-right', 'success'],
      ['niedrig_mit_nachfolger', 'Niedrig, Nachfolger vorhanden', 'alert', 'warning'],
      ['niedrig_ohne_nachfolger', 'Niedrig, kein Nachfolger', 'x', 'error'],
    ]);
    expect(p.labels.legende.ampeln[3].beschreibung).toContain('mindestens {reichweite} Tage');
    expect(p.labels.lieferstatus).toEqual({ open: 'Offen', inProgress: 'In Bearbeitung', completed: 'Abgeschlossen', locked: 'Gesperrt' });
    // No text is a missing key.
    const alle = JSON.stringify(p.labels);
    expect(alle).not.toMatch(/tankstelle:|bewegungsdaten:|zuordnung:|einlieferungen:/);
    // The island's code, React among it, is preloaded with the page.
    for (const href of loadAssets().island('tankstelle')) expect(res.text).toContain(`href="${href}"`);
  });

  it('in English, with the user\'s date settings', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO', 'en');
    const res = await agent.get(`/en/${PFAD}`);
    const p = insel(res.text);
    expect(p).toMatchObject({ lang: 'en', standortNr: '1001', ansicht: 'tanks', produktNr: null });
    expect(p.labels.laden.fehler).toBe('The filling station data could not be loaded.');
    expect(p.labels.laden.erneut).toBe('Try again');
    expect(p.labels.laden.aktualisiert).toBe('Updated at {zeit}');
    expect(p.labels.tank.tage).toEqual({ one: '{count} day', other: '{count} days' });
  });

  it('a Cockpit holder without the stock rights gets the notice, no island and no React; nor does a list page', async () => {
    const [{ id }] = await t.db.knex('benutzer')
      .insert({ login: 'COCKPIT_INSEL', email: 'cockpit-insel@test.example', vorname: 'Nur', nachname: 'Cockpit', password_hash: await hashPassword('Cockpit12345') })
      .returning('id');
    await t.db.knex('benutzer_mandanten').insert({ mandant: 'DEMO', benutzer_id: id, admin_kz: false });
    await t.db.knex('rollen').insert({ mandant: 'DEMO', benutzer_id: id, typ: 17, standort_nr: null });
    const assets = loadAssets();
    const shell = assets.entry('islands/shell.ts');
    const react = assets.island('tankstelle').filter((href) => href !== shell.js && !shell.preload.includes(href));
    expect(react.length).toBeGreaterThan(1);
    const cockpit = await signIn(t.app, 'COCKPIT_INSEL', 'Cockpit12345');
    const notice = await cockpit.get(`/de/${PFAD}`);
    expect(notice.status).toBe(200);
    expect(notice.text).toContain('Keine Berechtigung für die Bestände');
    expect(notice.text).not.toContain('data-island');
    for (const href of [...react, assets.entry('islands/main.ts').js!]) expect(notice.text).not.toContain(href);
    const admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const liste = await admin.get('/de/bewegungsdaten/einlieferungen');
    expect(liste.status).toBe(200);
    expect(liste.text).not.toContain('data-island');
    for (const href of react) expect(liste.text).not.toContain(href);
  });
});
