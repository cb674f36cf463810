// The views' renderer: includes resolved as EJS resolves them, locals visible as EJS gives them, in both modes
// (kept compiled for production, read anew in development).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ejs from 'ejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Templates } from './templates.js';

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

  it('renders the same twice (the second time from what it kept)', () => {
    const templates = new Templates(root, { cache });
    const first = templates.render('page', { title: 'A', label2: 'x' });
    expect(templates.render('page', { title: 'A', label2: 'x' })).toBe(first);
    expect(templates.render('page', { title: 'B', label2: 'y' })).toContain('<h1>B</h1>');
  });
});

describe('an error in a view', () => {
  it('names the view it happened in, in both modes', () => {
    write('broken.ejs', `<p><%- include('partials/broken-part') %></p>`);
    write('partials/broken-part.ejs', `<%= missingThing.field %>`);
    for (const cache of [true, false]) {
      expect(() => new Templates(root, { cache }).render('broken', {})).toThrow(/missingThing/);
      expect(() => new Templates(root, { cache }).render('broken', {})).toThrow(/broken-part\.ejs/);
    }
  });
});
