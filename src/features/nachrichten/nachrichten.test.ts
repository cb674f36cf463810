// Nachrichten: who sees which message (tenant, validity), the unread count in the header, marking read, and
// that only administrators write (system administrators also to all tenants); bad input changes nothing.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenant } from '../../db/rls.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { heuteInDeutschland } from '../zuordnung/service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });
const heute = heuteInDeutschland();
const tag = (n: number) => new Date(Date.parse(`${heute}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** Rows of a tenant's table, read as the owner with that tenant set (row-level security). */
async function rows(table: string, mandant: string) {
  return t.db.knex.transaction(async (trx) => {
    await setTenant(trx, mandant);
    return trx(table).where({ mandant });
  });
}
const headerCount = (html: string) => html.match(/class="nachrichten-chip[^"]*" href="\/de\/benutzer\/nachrichten" aria-label="([^"]+)"/)?.[1];

describe('Nachrichten', () => {
  it("shows a user the messages valid today of their tenant, newest first, unread marked; never another tenant's or an expired one", async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const page = await agent.get('/de/benutzer/nachrichten');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Neue Ansprechpartnerin für Nachweise');
    expect(page.text).toContain('Neu im Portal: das Dashboard mit Kennzahlen');
    expect(page.text).not.toContain('Umstellung der Tanklager-Nummern');
    expect(page.text).not.toContain('Inventur im Tanklager Wilhelmshaven');
    // Newest first.
    expect(page.text.indexOf('Neue Ansprechpartnerin')).toBeLessThan(page.text.indexOf('Jahresabschluss'));
    // Read by USER in the demo: marked read, the others unread; no form for a user.
    const wartung = page.text.slice(page.text.indexOf('Wartungsfenster am Samstag'));
    expect(wartung.slice(0, 400)).toContain('Gelesen');
    expect(page.text).toContain('Sie haben 3 ungelesene Nachrichten.');
    expect(headerCount(page.text)).toBe('3 ungelesene Nachrichten');
    expect(page.text).not.toContain('Nachricht schreiben');
    // Paragraphs and line breaks kept, escaped.
    expect(wartung).toContain('Am Samstag zwischen 6:00 und 8:00 Uhr wird das Portal gewartet.<br>In dieser Zeit sind Importe nicht möglich.</p><p>');

    const api = await request(t.app).get('/api/nachrichten').set(await as('USER', 'User12345'));
    expect(api.status).toBe(200);
    expect(api.body.data.map((n: { titel: string }) => n.titel)).not.toContain('Inventur im Tanklager Wilhelmshaven');
    expect(api.body.ungelesen).toBe(3);
    expect(api.body.data.find((n: { titel: string }) => n.titel === 'Wartungsfenster am Samstag').ungelesen).toBe(false);
    const nord = await request(t.app).get('/api/nachrichten').set(await as('ADMIN', 'Admin12345', 'NORD'));
    expect(nord.body.data.map((n: { titel: string }) => n.titel).sort()).toEqual(['Inventur im Tanklager Wilhelmshaven', 'Neu im Portal: das Dashboard mit Kennzahlen']);
  });

  it('shows the unread count in the header of every signed-in page, and marks read (one, then all) with post-redirect-get', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const dash = await agent.get('/de/benutzer/dashboard');
    expect(headerCount(dash.text)).toBe('4 ungelesene Nachrichten');
    const list = await agent.get('/de/bewegungsdaten/einlieferungen');
    expect(headerCount(list.text)).toBe('4 ungelesene Nachrichten');
    const page = await agent.get('/de/benutzer/nachrichten');
    const id = (await rows('nachrichten', 'DEMO')).find((n) => n.titel === 'Neue Ansprechpartnerin für Nachweise')!.id;
    const one = await agent.post(`/de/benutzer/nachrichten/${id}/gelesen`).type('form').send({ _csrf: csrfFrom(page.text) });
    expect(one.status).toBe(302);
    expect(one.headers.location).toBe(`/de/benutzer/nachrichten#nachricht-${id}`);
    const after = await agent.get('/de/benutzer/nachrichten');
    expect(headerCount(after.text)).toBe('3 ungelesene Nachrichten');
    expect(after.text).toContain('Die Nachricht ist als gelesen markiert.');
    // Again: nothing changes, no second mark.
    await agent.post(`/de/benutzer/nachrichten/${id}/gelesen`).type('form').send({ _csrf: csrfFrom(after.text) });
    expect((await rows('nachrichten_gelesen', 'DEMO')).filter((g) => Number(g.nachricht_id) === Number(id)).length).toBe(1);
    const all = await agent.post('/de/benutzer/nachrichten/gelesen').type('form').send({ _csrf: csrfFrom(after.text) });
    expect(all.status).toBe(302);
    const done = await agent.get('/de/benutzer/nachrichten');
    expect(headerCount(done.text)).toBe('Keine ungelesenen Nachrichten');
    expect(done.text).toContain('Sie haben alle Nachrichten gelesen.');
    // Another user's marks are their own.
    expect((await request(t.app).get('/api/nachrichten').set(await as('USER', 'User12345'))).body.ungelesen).toBe(3);
  });

  it('lets a tenant administrator write a message for their tenant (audited), shown to its users from its first day only', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const page = await agent.get('/de/benutzer/nachrichten');
    expect(page.text).toContain('Nachricht schreiben');
    expect(page.text).not.toContain('Benutzer aller Mandanten');
    const csrf = csrfFrom(page.text);
    const res = await agent.post('/de/benutzer/nachrichten').type('form')
      .send({ _csrf: csrf, titel: 'Heute <b>fett</b>', text: 'Erste Zeile\r\nZweite Zeile\r\n\r\nZweiter Absatz', gueltigVon: heute, gueltigBis: tag(3) });
    expect(res.status).toBe(302);
    const future = await agent.post('/de/benutzer/nachrichten').type('form').send({ _csrf: csrf, titel: 'Morgen erst', text: 'Noch nicht', gueltigVon: tag(1) });
    expect(future.status).toBe(302);
    const stored = (await rows('nachrichten', 'DEMO')).find((n) => n.titel === 'Heute <b>fett</b>')!;
    expect(stored).toMatchObject({ text: 'Erste Zeile\nZweite Zeile\n\nZweiter Absatz', gueltig_von: heute, gueltig_bis: tag(3), gruppe: null });
    const entry = await t.db.knex('audit_log').where({ kind: 'benutzer.nachricht.create', entity_id: String(stored.id) }).first();
    expect(entry).toMatchObject({ mandant: 'DEMO', entity: 'nachricht' });

    const user = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const seen = await user.get('/de/benutzer/nachrichten');
    expect(seen.text).toContain('Heute &lt;b&gt;fett&lt;/b&gt;');
    expect(seen.text).not.toContain('<b>fett</b>');
    expect(seen.text).toContain('Erste Zeile<br>Zweite Zeile</p><p>Zweiter Absatz</p>');
    expect(seen.text).not.toContain('Morgen erst');
    // The administrator's overview shows the coming one as planned, and NORD sees neither.
    expect((await agent.get('/de/benutzer/nachrichten')).text).toMatch(/Morgen erst[\s\S]{0,400}Geplant/);
    const nord = await request(t.app).get('/api/nachrichten?alle=true').set(await as('ADMIN', 'Admin12345', 'NORD'));
    expect(nord.body.data.map((n: { titel: string }) => n.titel)).not.toContain('Heute <b>fett</b>');
  });

  it('lets a system administrator write to all tenants: one row per tenant in one group, each audited', async () => {
    const auth = await as('ADMIN', 'Admin12345');
    const res = await request(t.app).post('/api/nachrichten').set(auth).send({ titel: 'An alle', text: 'Für jeden Mandanten', gueltigVon: heute, an: 'alle' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ titel: 'An alle', anAlle: true, gueltigBis: null });
    const demo = (await rows('nachrichten', 'DEMO')).filter((n) => n.titel === 'An alle');
    const nord = (await rows('nachrichten', 'NORD')).filter((n) => n.titel === 'An alle');
    expect(demo).toHaveLength(1);
    expect(nord).toHaveLength(1);
    expect(demo[0].gruppe).toBe(nord[0].gruppe);
    expect(await t.db.knex('audit_log').where({ kind: 'benutzer.nachricht.create' }).whereIn('entity_id', [String(demo[0].id), String(nord[0].id)]).pluck('mandant')).toEqual(expect.arrayContaining(['DEMO', 'NORD']));
    // Deleting it in one tenant leaves the other's.
    const del = await request(t.app).delete(`/api/nachrichten/${nord[0].id}`).set(await as('ADMIN', 'Admin12345', 'NORD'));
    expect(del.status).toBe(200);
    expect((await rows('nachrichten', 'NORD')).filter((n) => n.titel === 'An alle')).toHaveLength(0);
    expect((await rows('nachrichten', 'DEMO')).filter((n) => n.titel === 'An alle')).toHaveLength(1);
  });

  it('refuses bad input with clear errors and stores nothing', async () => {
    const auth = await as('TADMIN', 'Tadmin12345');
    const before = (await rows('nachrichten', 'DEMO')).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ titel: '  ', text: 'x', gueltigVon: heute }, 'titel', 'Bitte einen Titel angeben.'],
      [{ titel: 'x', text: '', gueltigVon: heute }, 'text', 'Bitte einen Text angeben.'],
      [{ titel: 'x', text: 'a'.repeat(5001), gueltigVon: heute }, 'text', 'Der Text darf höchstens 5000 Zeichen lang sein.'],
      [{ titel: 'x'.repeat(201), text: 'x', gueltigVon: heute }, 'titel', 'Der Titel darf höchstens 200 Zeichen lang sein.'],
      [{ titel: 'x', text: 'x', gueltigVon: tag(5), gueltigBis: tag(2) }, 'gueltigBis', '„Gültig bis“ darf nicht vor „Gültig von“ liegen.'],
      [{ titel: 'x', text: 'x', gueltigVon: 'gestern' }, 'gueltigVon', 'Kein gültiges Datum (z. B. 31.12.2025 oder 2025-12-31)'],
    ];
    for (const [body, field, message] of cases) {
      const res = await request(t.app).post('/api/nachrichten').set(auth).send(body);
      expect(res.status, field).toBe(400);
      expect(res.body.errors, field).toContainEqual({ field, message });
    }
    // A tenant administrator may not write to all tenants.
    const alle = await request(t.app).post('/api/nachrichten').set(auth).send({ titel: 'x', text: 'x', gueltigVon: heute, an: 'alle' });
    expect(alle.status).toBe(403);
    expect(alle.body.message).toBe('Nur Systemadministratoren dürfen Nachrichten an alle Mandanten schreiben.');
    // The page's form shows the error at its field and keeps what was typed.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const page = await agent.get('/de/benutzer/nachrichten');
    const form = await agent.post('/de/benutzer/nachrichten').type('form').send({ _csrf: csrfFrom(page.text), titel: 'Behalten', text: 'x', gueltigVon: tag(5), gueltigBis: tag(2) });
    expect(form.status).toBe(400);
    expect(form.text).toContain('„Gültig bis“ darf nicht vor „Gültig von“ liegen.');
    expect(form.text).toContain('value="Behalten"');
    expect((await rows('nachrichten', 'DEMO')).length).toBe(before);
  });

  it('asks before deleting a message on the page: the first post and cancelling change nothing, the confirmed post deletes (audited)', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    let page = await agent.get('/de/benutzer/nachrichten');
    const created = await agent.post('/de/benutzer/nachrichten').type('form').send({ _csrf: csrfFrom(page.text), titel: 'Bald weg', text: 'Wird gelöscht', gueltigVon: heute });
    expect(created.status).toBe(302);
    const id = Number((await rows('nachrichten', 'DEMO')).find((n) => n.titel === 'Bald weg')!.id);
    page = await agent.get('/de/benutzer/nachrichten');
    expect(page.text).toContain(`action="/de/benutzer/nachrichten/${id}/loeschen"`);

    const asked = await agent.post(`/de/benutzer/nachrichten/${id}/loeschen`).type('form').send({ _csrf: csrfFrom(page.text) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Nachricht „Bald weg“ löschen?');
    expect(asked.text).toContain('die Benutzer dieses Mandanten sehen sie danach nicht mehr');
    expect(asked.text).toContain('name="bestaetigt" value="ja"');
    expect(asked.text).toContain('href="/de/benutzer/nachrichten#verwaltung"');
    expect((await rows('nachrichten', 'DEMO')).some((n) => Number(n.id) === id)).toBe(true);
    // Cancelling is the link back to the page: the message is still there.
    expect((await agent.get('/de/benutzer/nachrichten')).text).toContain('Bald weg');
    expect((await rows('nachrichten', 'DEMO')).some((n) => Number(n.id) === id)).toBe(true);

    const done = await agent.post(`/de/benutzer/nachrichten/${id}/loeschen`).type('form').send({ _csrf: csrfFrom(asked.text), bestaetigt: 'ja' });
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe('/de/benutzer/nachrichten');
    expect((await rows('nachrichten', 'DEMO')).some((n) => Number(n.id) === id)).toBe(false);
    expect(await t.db.knex('audit_log').where({ kind: 'benutzer.nachricht.delete', entity_id: String(id) }).first()).toMatchObject({ mandant: 'DEMO' });
    // Another tenant's message: 404 at once, without a confirmation, changing nothing.
    const nordId = Number((await rows('nachrichten', 'NORD')).find((n) => n.titel === 'Inventur im Tanklager Wilhelmshaven')!.id);
    const fremd = await agent.post(`/de/benutzer/nachrichten/${nordId}/loeschen`).type('form').send({ _csrf: csrfFrom(asked.text) });
    expect(fremd.status).toBe(404);
    expect(await rows('nachrichten', 'NORD')).toContainEqual(expect.objectContaining({ titel: 'Inventur im Tanklager Wilhelmshaven' }));
  });

  it('lets no ordinary user write or delete (403), and answers 404 for another tenant\'s message, changing nothing', async () => {
    const user = await as('USER', 'User12345');
    const demoIds = (await rows('nachrichten', 'DEMO')).map((n) => Number(n.id));
    const nordId = Number((await rows('nachrichten', 'NORD')).find((n) => n.titel === 'Inventur im Tanklager Wilhelmshaven')!.id);
    const post = await request(t.app).post('/api/nachrichten').set(user).send({ titel: 'x', text: 'x', gueltigVon: heute });
    expect(post.status).toBe(403);
    expect(post.body.message).toBe('Nur Administratoren dürfen Nachrichten schreiben oder löschen.');
    expect((await request(t.app).delete(`/api/nachrichten/${demoIds[0]}`).set(user)).status).toBe(403);
    // The form post of a user: refused, back with the no-permission message.
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const page = await agent.get('/de/benutzer/nachrichten');
    const form = await agent.post('/de/benutzer/nachrichten').type('form').send({ _csrf: csrfFrom(page.text), titel: 'x', text: 'x', gueltigVon: heute });
    expect(form.status).toBe(302);
    // Another tenant's id: unknown (404) for reading, marking and deleting, even for a DEMO administrator.
    const tadmin = await as('TADMIN', 'Tadmin12345');
    expect((await request(t.app).post(`/api/nachrichten/${nordId}/gelesen`).set(user)).status).toBe(404);
    const del = await request(t.app).delete(`/api/nachrichten/${nordId}`).set(tadmin);
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('Nachricht nicht gefunden.');
    expect((await request(t.app).post('/api/nachrichten/abc/gelesen').set(user)).status).toBe(404);
    expect(await rows('nachrichten', 'NORD')).toContainEqual(expect.objectContaining({ titel: 'Inventur im Tanklager Wilhelmshaven' }));
    expect((await rows('nachrichten_gelesen', 'NORD')).filter((g) => Number(g.nachricht_id) === nordId)).toHaveLength(0);
    expect((await rows('nachrichten', 'DEMO')).map((n) => Number(n.id))).toEqual(expect.arrayContaining(demoIds));
    // An expired message cannot be marked read either.
    const expired = Number((await rows('nachrichten', 'DEMO')).find((n) => n.titel.startsWith('Umstellung'))!.id);
    expect((await request(t.app).post(`/api/nachrichten/${expired}/gelesen`).set(user)).status).toBe(404);
  });
});
