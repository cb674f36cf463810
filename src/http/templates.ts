// The views, compiled once and rendered without EJS's per-render work.
//
// EJS runs a view's code inside `with (locals) { … }`: every name the code uses (its own variables, `__append`,
// the escaping function, the page's locals) is looked up dynamically, which V8 cannot make fast, and it resolves
// every `include()` anew on each render (copies the options, looks for the file on disk, copies every local of
// the page into a new object). A list page renders about forty views. Here:
// - each view is compiled once (in production: kept for the life of the process) from the code EJS generates for
//   it without `with`. Its free names (those it reads but does not declare: periscopic's scope analysis of the
//   code parsed by acorn) are declared before it and read once per render from its locals; `locals.name` in the
//   view reads the same way. A name the locals lack is undefined (under `with` it was a ReferenceError); a global
//   the locals do not shadow stays the global;
// - an included view's locals are its own data and a link to its includer's: a name is looked for in the view's
//   own data, then its includer's, up to the page's. Nothing is copied, no object is made a prototype (a new
//   prototype per request costs V8 new hidden classes on every include), and what a view sets on its locals
//   stays its own;
// - an include's file is resolved once per (including file, name) from a list of the views taken at start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type Node } from 'acorn';
import { fullAncestor } from 'acorn-walk';
import ejs from 'ejs';
import { analyze } from 'periscopic';

type Locals = Record<string | symbol, unknown>;
type Include = (name: string, own?: Record<string, unknown>) => string;
type Escape = (value: unknown) => string;
type Rethrow = (err: unknown, line: number) => never;
type Read = (locals: Locals, name: string, fallback?: unknown) => unknown;
type Compiled = (locals: Locals, escapeFn: Escape, include: Include, rethrow: Rethrow, __read: Read) => string;

/** Errors already named by the view they happened in (an include's error passes through its includers). */
const named = new WeakSet<Error>();

/** In an included view's locals: its includer's. */
const INCLUDER = Symbol('includer locals');

/** A name as a view sees it: its own data first, then its includer's, up to the page's locals; else `fallback`. */
export function read(locals: Locals, name: string, fallback?: unknown): unknown {
  for (let l: Locals | undefined = locals; l !== undefined; l = l[INCLUDER] as Locals | undefined) {
    if (name in l) return l[name];
  }
  return fallback;
}

export interface TemplateOptions {
  /** Keep compiled views and resolved includes for the life of the process (production). */
  cache: boolean;
}

/** Every `.ejs` below `dir`, as absolute paths. */
function viewsBelow(dir: string): Set<string> {
  const files = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ejs')) files.add(path.join(entry.parentPath, entry.name));
  }
  return files;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const SPECIAL = /[&<>'"]/;
const SPECIALS = /[&<>'"]/g;
/**
 * `<%= value %>`: what EJS's escapeXML writes (the same entities), without a replace() call for the many values
 * that have nothing to escape (numbers, dates, most texts).
 */
export function escapeHtml(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ENTITIES[c]) : text;
}

/** The compiled code's own names (EJS's and ours): never taken from the locals. */
const OWN_NAMES = new Set(['locals', 'escapeFn', 'include', 'rethrow', '__read', '__output', '__append', '__line', 'arguments', 'undefined', 'globalThis']);

type Positioned = Node & { start: number; end: number };
type AnyNode = Positioned & Record<string, unknown>;

/**
 * A view's code with each read of `locals.name` made a read through its includers (`__read(locals, "name")`),
 * and the names it uses without declaring them.
 */
export function rewriteView(code: string): { code: string; freeNames: string[] } {
  const ast = parse(code, { ecmaVersion: 'latest', allowReturnOutsideFunction: true });
  const reads: Positioned[] = [];
  fullAncestor(ast, (node: Node, _state: unknown, ancestors: Node[]) => {
    const member = node as AnyNode;
    if (member.type !== 'MemberExpression' || member.computed || (member.object as AnyNode).type !== 'Identifier' || (member.object as AnyNode).name !== 'locals') return;
    const parent = ancestors[ancestors.length - 2] as AnyNode;
    // Written (`locals.x = …`, `locals.x++`, `delete locals.x`): to the view's own locals, as written.
    const written = (parent.type === 'AssignmentExpression' && parent.left === member) || parent.type === 'UpdateExpression' || (parent.type === 'UnaryExpression' && parent.operator === 'delete');
    if (!written) reads.push(member);
  });
  let out = code;
  for (const m of reads.sort((x, y) => y.start - x.start)) {
    const name = ((m as AnyNode).property as AnyNode).name as string;
    out = `${out.slice(0, m.start)}__read(locals, ${JSON.stringify(name)})${out.slice(m.end)}`;
  }
  const { globals } = analyze(ast as unknown as Parameters<typeof analyze>[0]);
  return { code: out, freeNames: [...globals.keys()].filter((n) => !OWN_NAMES.has(n)) };
}

/** A view compiled as described at the top; `debug` keeps the line counter, so an error names its line. */
export function compileView(source: string, file: string, debug: boolean): { fn: Compiled; lines: string[] } {
  const template = new (ejs as unknown as { Template: new (text: string, opts: ejs.Options) => { compile(): unknown; source: string; templateText: string } }).Template(source, {
    filename: file, rmWhitespace: true, compileDebug: debug, _with: false, localsName: 'locals', strict: false,
  } as ejs.Options);
  template.compile(); // fills template.source: the body EJS runs, here without `with`
  const { code, freeNames } = rewriteView(`{\n${template.source}\n}`);
  const declared = freeNames.map((n) => `${n} = __read(locals, ${JSON.stringify(n)}${n in globalThis ? `, globalThis.${n}` : ''})`);
  const prologue = declared.length ? `var ${declared.join(',\n  ')};\n` : '';
  const body = debug ? `let __line = 1;\ntry ${code} catch (e) { rethrow(e, __line); }` : code;
  const fn = new Function('locals, escapeFn, include, rethrow, __read', prologue + body) as Compiled;
  return { fn, lines: template.templateText.split('\n') };
}

interface View {
  fn: Compiled;
  rethrow: Rethrow;
}

export class Templates {
  private readonly compiled = new Map<string, View>();
  private readonly resolved = new Map<string, string>();
  private readonly known: Set<string> | null;

  constructor(
    private readonly root: string,
    private readonly options: TemplateOptions,
  ) {
    // Without the cache (development) a view may appear while the server runs: look on disk then.
    this.known = options.cache ? viewsBelow(root) : null;
  }

  /** Renders `views/<view>.ejs` with these locals (used as they are). */
  render(view: string, locals: Locals): string {
    return this.run(path.join(this.root, `${view}.ejs`), locals);
  }

  private exists(file: string): boolean {
    return this.known ? this.known.has(file) : existsSync(file);
  }

  /** As EJS resolves an include: relative to the including file, else in the views folder; `.ejs` added. */
  private resolve(from: string, name: string): string {
    const key = `${from}\0${name}`;
    const hit = this.resolved.get(key);
    if (hit) return hit;
    const file = path.extname(name) ? name : `${name}.ejs`;
    const candidates = name.startsWith('/') ? [path.join(this.root, file)] : [path.resolve(path.dirname(from), file), path.resolve(this.root, file)];
    const found = candidates.find((c) => c.startsWith(this.root + path.sep) && this.exists(c));
    if (!found) throw new Error(`Could not find the include file "${name}" (included from ${path.relative(this.root, from)})`);
    if (this.options.cache) this.resolved.set(key, found);
    return found;
  }

  private load(file: string): View {
    let view = this.compiled.get(file);
    if (view) return view;
    const source = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    // rmWhitespace: indentation and blank lines dropped at compile time (a fifth of a list page's bytes); a line
    // break stays wherever there was one, so the page renders the same. Without the cache (development, the
    // tests) the view keeps EJS's line counter, so an error names its line too.
    const debug = !this.options.cache;
    const { fn, lines } = compileView(source, file, debug);
    const where = path.relative(this.root, file);
    const rethrow: Rethrow = (err, line) => {
      if (err instanceof Error && !named.has(err)) {
        named.add(err);
        err.message += ` (in view ${where}, line ${line}: ${lines[line - 1] ?? ''})`;
      }
      throw err;
    };
    view = { fn, rethrow };
    if (this.options.cache) this.compiled.set(file, view);
    return view;
  }

  private run(file: string, locals: Locals): string {
    const { fn, rethrow } = this.load(file);
    const include: Include = (name, own) => this.run(this.resolve(file, name), Object.assign({ [INCLUDER]: locals }, own));
    try {
      return fn(locals, escapeHtml, include, rethrow, read);
    } catch (err) {
      // Named by the innermost view it happened in (with its line where the view keeps the line counter).
      if (err instanceof Error && !named.has(err)) {
        named.add(err);
        if (!err.message.includes(file)) err.message += ` (in view ${path.relative(this.root, file)})`;
      }
      throw err;
    }
  }
}
