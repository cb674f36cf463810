// The views, compiled once and rendered without EJS's per-include work.
//
// EJS resolves every `include()` anew on each render: it copies the options, looks for the file on disk
// (`existsSync` relative to the including file, then in the views folder), looks the compiled function up by
// file name, and copies every local of the page into a new object for the included template. A list page makes
// about thirty includes, each with the page's forty locals. Here the views are read and compiled when first
// used (in production: kept for the life of the process), and an include's file is resolved once per (including
// file, name) from a list of the views taken at start. An included template gets a flat copy of its includer's
// locals and its own data, as with EJS.
//
// How: inside a compiled EJS template every name is looked up in the locals first (`with (locals)`), so a local
// named `include` is what `include(...)` calls. Each level's locals carry their own `include`, bound to their
// file, so relative names resolve as EJS resolves them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';

type Locals = Record<string, unknown>;

/** Errors already named by the view they happened in (an include's error passes through its includers). */
const named = new WeakSet<Error>();
type Compiled = (locals: Locals) => string;

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

/**
 * The includer's locals and the include's own data in one new object without a prototype (own data wins), as
 * Object.assign(Object.create(null), locals, own) would make it. A for-in loop: three times faster than
 * Object.assign for the forty locals of a page (which inherit nothing enumerable: they are object literals or
 * copies like this one), and a list page makes about thirty includes.
 */
function flatCopy(locals: Locals, own: Locals | undefined): Locals {
  const child: Locals = Object.create(null);
  for (const key in locals) child[key] = locals[key];
  if (own) for (const key in own) child[key] = own[key];
  return child;
}

export class Templates {
  private readonly compiled = new Map<string, Compiled>();
  private readonly resolved = new Map<string, string>();
  private readonly known: Set<string> | null;

  constructor(
    private readonly root: string,
    private readonly options: TemplateOptions,
  ) {
    // Without the cache (development) a view may appear while the server runs: look on disk then.
    this.known = options.cache ? viewsBelow(root) : null;
  }

  /** Renders `views/<view>.ejs` with these locals (used as they are: the template adds `include` to them). */
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

  private load(file: string): Compiled {
    let fn = this.compiled.get(file);
    if (fn) return fn;
    const source = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    // rmWhitespace: indentation and blank lines dropped at compile time (a fifth of a list page's bytes); a line
    // break stays wherever there was one, so the page renders the same. unsafePrototypeLocals: the locals are
    // used as given (they are this request's own objects), which is what lets their prototype chain carry the
    // page's locals into an include.
    // compileDebug off with the cache (production): the compiled view then carries no line counter, which inside
    // `with (locals)` is a lookup through the locals on every line; an error in a view then names its file (run),
    // not its line. In development and the tests it names the line.
    const options = { filename: file, rmWhitespace: true, unsafePrototypeLocals: true, compileDebug: !this.options.cache } as ejs.Options; // unsafePrototypeLocals is newer than the types
    fn = ejs.compile(source, options) as unknown as Compiled;
    if (this.options.cache) this.compiled.set(file, fn);
    return fn;
  }

  private run(file: string, locals: Locals): string {
    const fn = this.load(file);
    locals.include = (name: string, own?: Locals) => {
      // A flat copy, not Object.create(locals): inside `with (locals)` every name the view's own code uses
      // (__append, escapeFn, globals) is first looked for in the locals, through their whole prototype chain, and
      // a chain of includes made each of those lookups longer (measured: the views' own time grew more than
      // the copies saved).
      return this.run(this.resolve(file, name), flatCopy(locals, own));
    };
    try {
      return fn(locals);
    } catch (err) {
      // Named by the innermost view it happened in (EJS names the line too when compileDebug is on).
      if (err instanceof Error && !named.has(err)) {
        named.add(err);
        if (!err.message.includes(file)) err.message += ` (in view ${path.relative(this.root, file)})`;
      }
      throw err;
    }
  }
}
