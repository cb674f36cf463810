// The Bilanz editor island in the browser, on the worked example of certificates-and-balances.md section 4
// (created through the API as in bilanzen.test.ts): it mounts; allocating shows the six lines with 38.000 L
// assigned and 7.000 L rest; a preview stores nothing; a reason opens by keyboard; the lines sort and filter with
// the running total following; a priority is edited in place (and a stale version reloads); position 2 is split
// in place; closing through the server's preview page issues the POCs and leaves the page read-only. Without
// JavaScript the plain form allocates. axe (WCAG 2.x A/AA) on the page open and closed, with and without island.
import type { Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { bilanzBeispiel } from '../testing/bilanz-beispiel.js';

let h: BrowserHarness;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await startBrowserApp();
  const login = await request(h.testApp.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' });
  admin = { Authorization: login.body.token, 'X-Mandant': 'DEMO' };
});
afterAll(() => h?.close());

const api = () => request(h.testApp.app);
let seq = 0;

/**
 * The worked example at a fresh location (as bilanzen.test.ts `beispiel()`): partners A (priority 1, 100 %) and
 * B (priority 2, capped at 8,000 L), certificates N-1..N-3, deliveries A-1..A-4, and the Bilanz of Q1 2026.
 */
async function beispiel() {
  const n = ++seq;
  const { standortNr, tp1, tp2, N, A } = await bilanzBeispiel(h.testApp.app, admin, `BE${n}`);
  const ok = async (res: request.Test) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r;
  };
  const id = (await ok(api().post('/api/bilanzen').set(admin).send({ standortNr, produktNr: 'P013', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31' }))).body.data.id as number;
  return { id, tp1, tp2, N, A, pfad: `/de/bewegungsdaten/bilanzen/${id}` };
}

const ISLAND = '[data-island="bilanz-editor"]';
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
/** The footer rows of the lines grid, their cells' texts joined by a space. */
const fuss = (page: Page) =>
  page.locator(`${ISLAND} table.bilanz-zeilen tfoot tr`).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()).filter(Boolean).join(' ')));

/** Signed-in page with the island mounted on the Bilanz; page errors collected. */
async function oeffnen(pfad: string, options: Parameters<BrowserHarness['newPage']>[0] = {}) {
  const page = await h.newPage(options);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await h.signIn(page, 'TADMIN', 'Tadmin12345');
  await page.goto(pfad);
  // The filter exists only in the island: the mount loop ran and React rendered.
  await page.locator(`${ISLAND}[data-island-mounted] #bz-filter`).waitFor();
  return { page, errors };
}

/** The allocation lines as shown: [line, delivery, date, partner, certificate, quantity, running total, E, t, POC]. */
const zeilen = (page: Page) =>
  page.locator(`${ISLAND} table.bilanz-zeilen tbody tr:not(.reason-row)`).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())));
const kennzahl = (page: Page, label: string) => page.locator(`${ISLAND} .stat:has(dt:text-is("${label}")) .stat-value`).textContent().then(text);
const status = (page: Page, message: string) => page.locator(`${ISLAND} [role="status"]`).filter({ hasText: message }).waitFor();

async function verteilen(page: Page) {
  await page.getByRole('button', { name: 'Verteilen', exact: true }).click();
  await status(page, 'Die Bilanz wurde verteilt.');
}

describe('the Bilanz editor island', () => {
  it('mounts, previews without storing, and allocates the worked example: 6 lines, 38.000 L assigned, 7.000 L rest', async () => {
    const b = await beispiel();
    const { page, errors } = await oeffnen(b.pfad);
    await expect(page.locator(`${ISLAND} h1`).textContent().then(text)).resolves.toBe(`Bilanz ${b.id} Offen Nicht verteilt`);
    expect(await kennzahl(page, 'Bio-Menge (Eingang)')).toBe('45.000 L');
    expect(await zeilen(page)).toEqual([['Noch nicht verteilt. „Verteilen“ berechnet die Zuordnungen; erst „Abschließen“ stellt POCs aus.']]);

    await page.getByRole('button', { name: 'Vorschau', exact: true }).click();
    await page.getByText('Vorschau, nicht gespeichert: 38.000 L würden zugeordnet, Rest 7.000 L.', { exact: false }).waitFor();
    expect(await zeilen(page)).toHaveLength(6);
    expect(Number((await h.testApp.db.knex('bilanz_zeilen').where({ mandant: 'DEMO', bilanz_id: b.id }).count({ c: '*' }))[0].c)).toBe(0);
    await page.getByRole('button', { name: 'Vorschau verwerfen' }).click();
    expect(await zeilen(page)).toHaveLength(1);
    // Focus returns to the button that made the preview.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('be-vorschau');

    await verteilen(page);
    const z = await zeilen(page);
    expect(z.map((r) => [r[0], r[1], r[3], r[4], r[5], r[6]])).toEqual([
      ['1', b.A(2), b.tp1, b.N(1), '18.000 L', '18.000 L'],
      ['2', b.A(3), b.tp1, b.N(1), '2.000 L', '20.000 L'],
      ['3', b.A(3), b.tp1, b.N(2), '10.000 L', '30.000 L'],
      ['4', b.A(1), b.tp2, b.N(2), '5.000 L', '35.000 L'],
      ['5', b.A(1), b.tp2, b.N(3), '1.000 L', '36.000 L'],
      ['6', b.A(4), b.tp2, b.N(3), '2.000 L', '38.000 L'],
    ]);
    expect(z[0][2]).toBe('25.01.2026');
    expect(z[0][8]).toBe('48,7674');
    expect(await kennzahl(page, 'Zugeordnet')).toBe('38.000 L');
    expect(await kennzahl(page, 'Rest Bio-Menge')).toBe('7.000 L');
    expect(await fuss(page)).toEqual(['Summe 38.000 L 99,3894', 'Rest Bio-Menge 7.000 L']);
    await expect(page.locator(`${ISLAND} h1`).textContent().then(text)).resolves.toBe(`Bilanz ${b.id} Offen`);
    // Links to the delivery and certificate; what stays not covered.
    await expect(page.locator(`${ISLAND} table.bilanz-zeilen`).getByRole('link', { name: b.A(2) }).getAttribute('href')).resolves.toBe(`/de/bewegungsdaten/ablieferungen/${b.A(2)}`);
    await expect(page.locator(`${ISLAND} section:has(#nicht-gedeckt-heading) li`).textContent().then(text)).resolves.toBe(`${b.A(4)}: 3.000 L · Partner ${b.tp2} (Priorität 2)`);
    expect(errors).toEqual([]);
  });

  it('opens a line\'s reason by keyboard, also shown on hover', async () => {
    const b = await beispiel();
    await api().post(`/api/bilanzen/${b.id}/verteilung`).set(admin).send({});
    const { page } = await oeffnen(b.pfad);
    const toggle = page.getByRole('button', { name: 'Begründung zu Zeile 1' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    // The button keeps the focus, so the same key closes it again.
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    const grund = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await expect(grund.textContent().then(text)).resolves.toBe(`Begründung: Priorität 1 für Partner ${b.tp1}; Zertifikat ${b.N(1)} ist das älteste mit Rest 20.000 L`);
    // The reason row follows its line.
    expect(await grund.evaluate((tr) => tr.previousElementSibling?.querySelector('th')?.textContent)).toBe(b.A(2));
    await expect(page.locator(`${ISLAND} table.bilanz-zeilen tbody tr`).first().getAttribute('title')).resolves.toBe(`Priorität 1 für Partner ${b.tp1}; Zertifikat ${b.N(1)} ist das älteste mit Rest 20.000 L`);
    await page.keyboard.press('Space');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    expect(await page.locator(`${ISLAND} tr.reason-row`).count()).toBe(0);
  });

  it('sorts and filters the lines, the running total following the order shown', async () => {
    const b = await beispiel();
    await api().post(`/api/bilanzen/${b.id}/verteilung`).set(admin).send({});
    const { page } = await oeffnen(b.pfad);
    const menge = page.locator(`${ISLAND} table.bilanz-zeilen thead th`).filter({ hasText: 'Menge' }).first();
    await menge.getByRole('button').click();
    await expect(menge.getAttribute('aria-sort')).resolves.toBe('ascending');
    expect((await zeilen(page)).map((r) => [r[0], r[5], r[6]])).toEqual([
      ['5', '1.000 L', '1.000 L'], ['2', '2.000 L', '3.000 L'], ['6', '2.000 L', '5.000 L'], ['4', '5.000 L', '10.000 L'], ['3', '10.000 L', '20.000 L'], ['1', '18.000 L', '38.000 L'],
    ]);
    // By keyboard: the header is a button.
    await menge.getByRole('button').press('Enter');
    await expect(menge.getAttribute('aria-sort')).resolves.toBe('descending');
    expect((await zeilen(page)).map((r) => r[0])).toEqual(['1', '3', '4', '2', '6', '5']);

    await page.getByLabel('Zeilen filtern').fill(b.N(3));
    expect((await zeilen(page)).map((r) => [r[0], r[5], r[6]])).toEqual([['6', '2.000 L', '2.000 L'], ['5', '1.000 L', '3.000 L']]);
    await page.getByRole('status').filter({ hasText: '2 von 6 Zeilen' }).waitFor();
    expect((await fuss(page))[0]).toBe('Summe der angezeigten Zeilen 3.000 L 8,5239');
    await page.getByLabel('Zeilen filtern').fill('gibt es nicht');
    expect(await zeilen(page)).toEqual([['Keine Zeile passt zum Filter „gibt es nicht“.']]);
  });

  it('edits a priority in place; a stale version reloads the Bilanz and says so', async () => {
    const b = await beispiel();
    await api().post(`/api/bilanzen/${b.id}/verteilung`).set(admin).send({});
    const { page, errors } = await oeffnen(b.pfad);
    const prio = page.getByLabel(`Priorität (${b.tp1}, Position 1)`, { exact: true });
    // Typed key by key: the input keeps the focus while the row re-renders.
    await prio.selectText();
    await page.keyboard.type('13');
    await page.keyboard.press('Enter');
    await status(page, 'Gespeichert.');
    const knex = h.testApp.db.knex;
    expect((await knex('bilanz_positionen').where({ mandant: 'DEMO', bilanz_id: b.id, id: 1 }).first('prioritaet')).prioritaet).toBe(13);
    // A changed position drops the allocation: the page says so at once.
    await expect(page.locator(`${ISLAND} h1`).textContent().then(text)).resolves.toBe(`Bilanz ${b.id} Offen Nicht verteilt`);
    expect(await prio.inputValue()).toBe('13');

    // Someone else changes the Bilanz meanwhile: the save is refused, the Bilanz reloaded with the other change.
    await api().put(`/api/bilanzen/${b.id}/positionen/2`).set(admin).send({ prioritaet: 7, bioMenge: '8000' });
    await prio.fill('4');
    await page.getByRole('button', { name: 'Speichern (Position 1)' }).click();
    const alert = page.locator(`${ISLAND} [role="alert"]`);
    await alert.waitFor();
    expect(text(await alert.textContent())).toBe('Der Datensatz wurde inzwischen von jemand anderem geändert. Ihre Änderungen wurden nicht gespeichert. Die Bilanz wurde inzwischen geändert und ist neu geladen. Bitte prüfen Sie Ihre Änderung und wiederholen Sie sie.');
    await expect(page.getByLabel(`Priorität (${b.tp2}, Position 2)`, { exact: true }).inputValue()).resolves.toBe('7');
    // What the user typed stays, to save again.
    expect(await prio.inputValue()).toBe('4');
    await page.getByRole('button', { name: 'Speichern (Position 1)' }).click();
    await status(page, 'Gespeichert.');
    expect((await knex('bilanz_positionen').where({ mandant: 'DEMO', bilanz_id: b.id, id: 1 }).first('prioritaet')).prioritaet).toBe(4);
    // A refused value: the server's message at the row, the input marked.
    await page.getByLabel(`Biogehalt (%) (${b.tp1}, Position 1)`, { exact: true }).fill('101');
    await page.getByRole('button', { name: 'Speichern (Position 1)' }).click();
    await alert.waitFor();
    expect(text(await alert.textContent())).toBe('Biogehalt (%): Erlaubt sind Werte von 0 bis 100');
    await expect(page.getByLabel(`Biogehalt (%) (${b.tp1}, Position 1)`, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    expect(errors).toEqual([]);
  });

  it('splits position 2 in place: the new part typed in German, the rest stays with the position', async () => {
    const b = await beispiel();
    const { page } = await oeffnen(b.pfad);
    // Position 1 has no bio quantity: its split is the server's page.
    await expect(page.getByRole('link', { name: 'Teilen … (Position 1)' }).getAttribute('href')).resolves.toBe(`${b.pfad}/positionen/1/teilung`);
    const oeffner = page.getByRole('button', { name: 'Teilen … (Position 2)' });
    await oeffner.click();
    await expect(oeffner.getAttribute('aria-expanded')).resolves.toBe('true');
    const menge = page.getByLabel('Menge der neuen Position (L)');
    // The form opens with the focus in it.
    expect(await menge.evaluate((el) => el === document.activeElement)).toBe(true);
    await menge.fill('8.000');
    await page.getByText('Die neue Position muss kleiner sein als die bisherige (8.000 L).').waitFor();
    await menge.fill('2.500,5');
    await page.getByText('Position 2 behält 5.499,5 L.').waitFor();
    await page.getByLabel('Priorität der neuen Position').fill('3');
    await page.getByRole('button', { name: 'Teilen', exact: true }).click();
    await status(page, 'Die Position wurde geteilt.');
    const p = await h.testApp.db.knex('bilanz_positionen').where({ mandant: 'DEMO', bilanz_id: b.id }).orderBy('id').select('id', 'partner_nr', 'prioritaet', 'bio_menge');
    expect(p.map((x) => [x.id, x.partner_nr, x.prioritaet, x.bio_menge])).toEqual([[1, b.tp1, 1, null], [2, b.tp2, 2, '5499.500'], [3, b.tp2, 3, '2500.500']]);
    await expect(page.getByLabel(`Bio-Menge (Kappe) (${b.tp2}, Position 3)`, { exact: true }).inputValue()).resolves.toBe('2500,5');
    // The form closed; focus back on its button.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bp-2-teilen');
    await verteilen(page);
    expect(await kennzahl(page, 'Zugeordnet')).toBe('38.000 L');
  });

  it('closes through the server\'s preview page: the POCs are issued and the page is read-only', async () => {
    const b = await beispiel();
    const { page } = await oeffnen(b.pfad);
    await verteilen(page);
    await submitAndWait(page, () => page.getByRole('link', { name: 'Abschließen …', exact: true }).click());
    await page.getByText('Beim Abschließen entstehen diese 6 POCs').waitFor();
    await submitAndWait(page, () => page.getByRole('button', { name: 'Jetzt abschließen' }).click());
    await page.locator(`${ISLAND}[data-island-mounted] #bz-filter`).waitFor();
    await expect(page.locator(`${ISLAND} h1`).textContent().then(text)).resolves.toBe(`Bilanz ${b.id} Geschlossen`);
    await page.getByText('Die Bilanz ist abgeschlossen: Sie können sie ansehen, sortieren und filtern, aber nicht mehr ändern.').waitFor();
    const nb = await h.testApp.db.knex('nachweisbescheinigungen').where({ mandant: 'DEMO', bilanz_id: b.id }).orderBy('nr').pluck('nr');
    expect(nb).toHaveLength(6);
    const pocs = (await zeilen(page)).map((r) => r[9]);
    expect([...pocs].sort()).toEqual([...nb].sort());
    await expect(page.locator(`${ISLAND} table.bilanz-zeilen`).getByRole('link', { name: pocs[0] }).getAttribute('href')).resolves.toBe(`/de/bewegungsdaten/nachweisbescheinigungen/${pocs[0]}`);
    // Read-only: no operation, no input; sorting still works.
    expect(await page.locator(`${ISLAND} input:not(#bz-filter), ${ISLAND} select, ${ISLAND} textarea`).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Verteilen|Speichern|Löschen|Teilen/ }).count()).toBe(0);
    await page.locator(`${ISLAND} table.bilanz-zeilen thead th`).filter({ hasText: 'Menge' }).first().getByRole('button').click();
    expect((await zeilen(page))[0][5]).toBe('1.000 L');
    await h.checkA11y(page);
  });

  it('without JavaScript, allocates through the plain form and shows the lines', async () => {
    const b = await beispiel();
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto(b.pfad);
    expect(await page.locator(ISLAND).getAttribute('data-island-mounted')).toBeNull();
    await submitAndWait(page, () => page.getByRole('button', { name: 'Verteilen', exact: true }).click());
    await page.getByText('Die Bilanz wurde verteilt.').waitFor();
    const rows = await page.locator('section:has(#zuordnungen-heading) tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())));
    expect(rows.map((r) => [r[0], r[3]])).toEqual([['1', '18.000 L'], ['2', '2.000 L'], ['3', '10.000 L'], ['4', '5.000 L'], ['5', '1.000 L'], ['6', '2.000 L']]);
    await expect(page.locator('section:has(#zuordnungen-heading) tfoot').textContent().then(text)).resolves.toContain('38.000 L');
  });
});

describe.each(['light', 'dark'] as const)('accessibility of the Bilanz page, %s theme', (theme) => {
  it('passes axe with the island (allocated, a reason and a split form open) and as the plain page', async () => {
    const b = await beispiel();
    await api().post(`/api/bilanzen/${b.id}/verteilung`).set(admin).send({});
    const { page } = await oeffnen(b.pfad, { theme });
    expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
    await page.getByRole('button', { name: 'Begründung zu Zeile 2' }).click();
    await page.getByRole('button', { name: 'Teilen … (Position 2)' }).click();
    await h.checkA11y(page);
    await page.getByRole('button', { name: 'Vorschau', exact: true }).click();
    await page.getByRole('button', { name: 'Vorschau verwerfen' }).waitFor();
    await h.checkA11y(page);

    // The page as it stands without the island: its loader is blocked (axe itself needs scripts).
    const plain = await h.newPage({ theme });
    await plain.route(/\/build\/assets\/main-[^/]*\.js$/, (route) => route.abort());
    await h.signIn(plain, 'TADMIN', 'Tadmin12345');
    await plain.goto(b.pfad);
    expect(await plain.locator(ISLAND).getAttribute('data-island-mounted')).toBeNull();
    expect(await plain.locator(`${ISLAND} form[action$="/verteilung"]`).count()).toBe(1);
    await h.checkA11y(plain);
  });
});
