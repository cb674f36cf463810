// A list page is shown again as this process last showed it only while the change counters of its tables stand
// where they stood when it was read (src/records/list/pages.ts): then the request asks the database for its
// session only; after any change, through the app or elsewhere, to the list's table or to a table its status is
// computed from, the page is read again and shows the change. Each tenant and location scope keeps its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn, type Agent } from '../../testing/session.js';
import { changeElsewhere, shownWithStatements } from '../../testing/statements.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
});
afterAll(() => t.close());

const LIST = '/de/bewegungsdaten/einlieferungen?pageSize=10';

/** The page and every statement the request sent. */
const shown = (agent: Agent, path = LIST) => shownWithStatements(t, agent, path);

/** The statements that read the deliveries (the session's read names no movement table). */
const listReads = (statements: string[]) => statements.filter((sql) => /einlieferungen/.test(sql));
/** The table's rows as the page shows them: number, and the text of every cell. */
const rowsOf = (html: string) => html.slice(html.indexOf('<tbody'), html.indexOf('</tbody>'));
const numbersOf = (html: string) => [...rowsOf(html).matchAll(/\/(?:de|en)\/bewegungsdaten\/einlieferungen\/([^"?]+)"/g)].map((m) => decodeURIComponent(m[1]));

/** A change made outside this process, in DEMO. */
const elsewhere = (change: (trx: Knex.Transaction) => Promise<unknown>) => changeElsewhere(t, 'DEMO', change);

describe('remembered list pages', () => {
  it('are shown again without reading the deliveries while nothing changed, and show a change at once', async () => {
    const first = await shown(admin);
    expect(numbersOf(first.html)).toHaveLength(10);
    const again = await shown(admin);
    expect(listReads(again.statements)).toEqual([]);
    expect(rowsOf(again.html)).toBe(rowsOf(first.html));

    // Changed elsewhere (another instance, an import, SQL by hand): the quantity of the first row.
    const nr = numbersOf(first.html)[0];
    await elsewhere((trx) => trx('einlieferungen').where({ mandant: 'DEMO', nr }).update({ menge: '12345.678' }));
    const changed = await shown(admin);
    expect(listReads(changed.statements).length).toBeGreaterThan(0);
    expect(rowsOf(changed.html)).toContain('12.345,678');
    expect(rowsOf(changed.html)).not.toBe(rowsOf(first.html));
    // And remembered again from there.
    const after = await shown(admin);
    expect(listReads(after.statements)).toEqual([]);
    expect(rowsOf(after.html)).toBe(rowsOf(changed.html));
  });

  it('are read again when a table their status is computed from changes', async () => {
    await shown(admin);
    expect(listReads((await shown(admin)).statements)).toEqual([]);
    const one = await t.db.knex('nachweise').where({ mandant: 'DEMO' }).first('nr');
    expect(one).toBeDefined();
    await elsewhere((trx) => trx('nachweise').where({ mandant: 'DEMO', nr: one.nr }).update({ nr: one.nr }));
    expect(listReads((await shown(admin)).statements).length).toBeGreaterThan(0);
  });

  it('are kept per location scope: a user of one location never gets the page of all locations', async () => {
    const all = await shown(admin);
    expect(listReads((await shown(admin)).statements)).toEqual([]);
    await createUserWithRoles(t.db.knex, 'EINORT', 'Einort12345', [{ typ: 9, standortNr: '1001' }]);
    const leser = await signIn(t.app, 'EINORT', 'Einort12345', 'DEMO');
    const own = await shown(leser);
    expect(listReads(own.statements).length).toBeGreaterThan(0);
    const mine = numbersOf(own.html);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).not.toEqual(numbersOf(all.html));
    const atOwn = await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).whereIn('nr', mine).distinct('standort_nr').pluck('standort_nr');
    expect(atOwn).toEqual(['1001']);
    // Their own page is remembered for them in turn, the same page.
    const again = await shown(leser);
    expect(listReads(again.statements)).toEqual([]);
    expect(numbersOf(again.html)).toEqual(mine);
  });

  it('show each user the table in their own language and date format', async () => {
    const german = await shown(admin);
    expect(listReads((await shown(admin)).statements)).toEqual([]);
    const day = /<td\s+class="">(\d{2})\.(\d{2})\.(\d{4})<\/td>/.exec(rowsOf(german.html));
    expect(day).not.toBeNull();
    // TADMIN sees the same rows (all locations of DEMO), with dates as year-month-day.
    const tadmin = await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('id');
    await t.db.knex('einstellungen').insert({ benutzer_id: tadmin.id, typ: 1, data: JSON.stringify({ dateFormat: 'yyyy-MM-dd' }) })
      .onConflict(['benutzer_id', 'typ']).merge();
    const other = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const theirs = await shown(other);
    expect(listReads(theirs.statements)).toEqual([]);
    expect(numbersOf(theirs.html)).toEqual(numbersOf(german.html));
    expect(rowsOf(theirs.html)).toMatch(new RegExp(`<td\\s+class="">${day![3]}-${day![2]}-${day![1]}</td>`));
    expect(rowsOf(theirs.html)).not.toContain(`${day![1]}.${day![2]}.${day![3]}`);
    // In English: English labels and links, the same rows.
    const english = await shown(admin, LIST.replace('/de/', '/en/'));
    expect(listReads(english.statements)).toEqual([]);
    expect(english.html).toContain('/en/bewegungsdaten/einlieferungen/');
    expect(rowsOf(english.html)).not.toContain('/de/bewegungsdaten/');
    expect(rowsOf(german.html)).toContain(day![0]);
  });

  it('keep their links as each request asked: a page size asked for stays in them, a user\'s own is left out', async () => {
    const plain = '/de/bewegungsdaten/einlieferungen';
    const own = await shown(admin, plain);
    expect(own.html).toMatch(/href="\/de\/bewegungsdaten\/einlieferungen\?[^"]*page=2"/);
    expect(own.html).not.toContain('pageSize=10');
    // Someone whose own page size is 25 asks for 10: the same rows as ADMIN's default of 10, and links that keep asking.
    const id = await createUserWithRoles(t.db.knex, 'FUENFUNDZWANZIG', 'Fuenf12345', [{ typ: 9, standortNr: null }]);
    await t.db.knex('einstellungen').insert({ benutzer_id: id, typ: 1, data: JSON.stringify({ itemsPerPage: 25 }) });
    const asking = await signIn(t.app, 'FUENFUNDZWANZIG', 'Fuenf12345', 'DEMO');
    const asked = await shown(asking, `${plain}?pageSize=10`);
    expect(listReads(asked.statements)).toEqual([]);
    expect(numbersOf(asked.html)).toEqual(numbersOf(own.html));
    expect(asked.html).toMatch(/href="\/de\/bewegungsdaten\/einlieferungen\?[^"]*pageSize=10[^"]*page=2"/);
    const ownAgain = await shown(admin, plain);
    expect(listReads(ownAgain.statements)).toEqual([]);
    expect(ownAgain.html).not.toContain('pageSize=10');
  });

  it('are kept for the Ablieferungen too, and never for a list that reads tables it does not follow', async () => {
    const reads = (statements: string[], table: string) => statements.filter((sql) => sql.includes(table));
    const out = '/de/bewegungsdaten/ablieferungen';
    expect(reads((await shown(admin, out)).statements, 'ablieferungen').length).toBeGreaterThan(0);
    expect(reads((await shown(admin, out)).statements, 'ablieferungen')).toEqual([]);
    // The certificates' list has counters, but is not marked to be remembered: read for every request.
    const certificates = '/de/bewegungsdaten/nachweise';
    await shown(admin, certificates);
    expect(reads((await shown(admin, certificates)).statements, 'nachweise').length).toBeGreaterThan(0);
  });

  it('are kept per tenant, page and filter', async () => {
    const page2 = `${LIST}&page=2`;
    const first = await shown(admin, page2);
    expect(listReads(first.statements).length).toBeGreaterThan(0);
    expect(numbersOf(first.html)).not.toEqual(numbersOf((await shown(admin)).html));
    const filtered = `${LIST}&status=completed`;
    expect(listReads((await shown(admin, filtered)).statements).length).toBeGreaterThan(0);
    const nord = await signIn(t.app, 'ADMIN', 'Admin12345', 'NORD');
    const other = await shown(nord);
    expect(listReads(other.statements).length).toBeGreaterThan(0);
    const theirs = numbersOf(other.html);
    expect(theirs.length).toBeGreaterThan(0);
    const ofNord = await t.db.knex('einlieferungen').where({ mandant: 'NORD' }).whereIn('nr', theirs).pluck('nr');
    expect(ofNord.length).toBe(theirs.length);
  });
});
