// The views' renderer: includes resolved as EJS resolves them, locals visible as EJS gives them, in both modes
// (kept compiled for production, read anew in development).
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ejs from 'ejs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWS_DIR } from './render.js';
import { compileView, escapeHtml, Templates } from './templates.js';

let root: string;
const write = (name: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), text);
};

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'views-'));
  write('page.ejs', `<h1><%= title %></h1>\n  <%- include('partials/field', { name: 'a', label: 'A & B' }) %>\n<%- include('partials/field', { name: 'b', label: label2 }) %>|<%= typeof name %>`);
  write('partials/field.ejs', `<label for="<%= locals.id || 'f-' + name %>"><%= label %></label><%- include('hint') %>`);
  // Relative to the including file first: partials/hint, not the root's hint.
  write('partials/hint.ejs', `<small><%= title %>:<%= name %></small>`);
  write('hint.ejs', `WRONG`);
  write('root-only.ejs', `<%- include('partials/deep/leaf') %>`);
  write('partials/deep/leaf.ejs', `<%- include('../../hint') %>/<%- include('/hint') %>/<%- include('partials/hint', { name: 'x' }) %>`);
  write('missing.ejs', `<%- include('nowhere') %>`);
  write('assigns.ejs', `<%- include('partials/sets') %><%= typeof shadow === 'undefined' ? 'clean' : shadow %>`);
  write('partials/sets.ejs', `<% locals.shadow = 'leaked'; %>`);
  // Names a view takes from its locals, declares itself, or reads from the globals.
  write('names.ejs', `<% const own = title + '!'; %><%= own %>|<%= JSON.stringify(list) %>|<%= String(count) %>|<%= typeof absent %>|<% list.forEach((item) => { %><%= item %><% }) %>`);
  write('declares.ejs', `<% const title = 'mine'; %><%= title %>/<%- include('partials/title') %>`);
  write('partials/title.ejs', `<%= title %>`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each([true, false])('Templates (cache %s)', (cache) => {
  it('renders what EJS renders for the same view and locals, whitespace trimmed the same way', async () => {
    const locals = { title: 'Liste', label2: '<b>' };
    const ours = new Templates(root, { cache }).render('page', { ...locals });
    const theirs = await ejs.renderFile(path.join(root, 'page.ejs'), locals, { root, views: [root], rmWhitespace: true });
    expect(ours).toBe(theirs);
    expect(ours).toBe('<h1>Liste</h1>\n<label for="f-a">A &amp; B</label><small>Liste:a</small>\n<label for="f-b">&lt;b&gt;</label><small>Liste:b</small>|undefined');
  });

  it('resolves an include relative to its file, then in the views folder, and a leading slash from the views folder', () => {
    expect(new Templates(root, { cache }).render('root-only', { title: 'T', name: 'n' })).toBe('WRONG/WRONG/<small>T:x</small>');
  });

  it('names an include it cannot find and the file that asked for it', () => {
    expect(() => new Templates(root, { cache }).render('missing', {})).toThrow(/Could not find the include file "nowhere" \(included from missing\.ejs\)/);
  });

  it('keeps what an include sets on its locals to itself', () => {
    expect(new Templates(root, { cache }).render('assigns', {})).toBe('clean');
  });

  it("gives a view its locals, its own variables, the globals (unless a local shadows one) and undefined for a name it lacks", () => {
    expect(new Templates(root, { cache }).render('names', { title: 'T', list: [1, 2], count: 3 })).toBe('T!|[1,2]|3|undefined|12');
    // A local named like a global wins, as under EJS's `with (locals)`.
    expect(new Templates(root, { cache }).render('names', { title: 'T', list: ['a'], count: 4, String: () => 'shadowed' })).toBe('T!|[&#34;a&#34;]|shadowed|undefined|a');
  });

  it("lets a view's own declaration shadow a local of the same name, for itself only", () => {
    expect(new Templates(root, { cache }).render('declares', { title: 'page' })).toBe('mine/page');
  });

  it('renders the same twice (the second time from what it kept)', () => {
    const templates = new Templates(root, { cache });
    const first = templates.render('page', { title: 'A', label2: 'x' });
    expect(templates.render('page', { title: 'A', label2: 'x' })).toBe(first);
    expect(templates.render('page', { title: 'B', label2: 'y' })).toContain('<h1>B</h1>');
  });
});

describe('an error in a view', () => {
  it('names the view it happened in, in both modes, and its line where the view keeps the line counter (development)', () => {
    write('broken.ejs', `<p><%- include('partials/broken-part') %></p>`);
    write('partials/broken-part.ejs', `<p>\n<%= missingThing.field %>\n</p>`);
    for (const cache of [true, false]) {
      expect(() => new Templates(root, { cache }).render('broken', {})).toThrow(/Cannot read properties of undefined \(reading 'field'\)/);
      expect(() => new Templates(root, { cache }).render('broken', {})).toThrow(/in view partials\/broken-part\.ejs/);
    }
    expect(() => new Templates(root, { cache: false }).render('broken', {})).toThrow(/line 2: <%= missingThing\.field %>/);
  });
});

describe("the portal's views", () => {
  it('all compile, in both modes (their code parses, so the names each reads can be found)', () => {
    const views = readdirSync(VIEWS_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ejs'));
    expect(views.length).toBeGreaterThan(100);
    for (const view of views) {
      const file = path.join(VIEWS_DIR, view);
      for (const debug of [true, false]) expect(() => compileView(readFileSync(file, 'utf8'), file, debug), view).not.toThrow();
    }
  });
});

describe('escapeHtml', () => {
  it("writes what EJS's escapeXML writes, for any value", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe('&lt;a href=&#34;x&#34;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;');
    for (const v of [undefined, null, 0, 12.5, true, 'plain']) expect(escapeHtml(v)).toBe(ejs.escapeXML(v as string));
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', 'ä', ' ') }), (s) => escapeHtml(s) === ejs.escapeXML(s)));
    fc.assert(fc.property(fc.string(), (s) => escapeHtml(s) === ejs.escapeXML(s)));
  });
});
