// The import code: which column of a file feeds which field of a delivery, written as text by a business user,
// one line per field:
//
//   # Kommentar
//   nr             = Spalte "Lieferschein"
//   entladedatum   = Spalte "Datum" | datum TT.MM.JJJJ
//   entladeneMenge = Spalte "Menge" | dezimalkomma
//   unitOfMeasure  = Spalte "ME" | einheit Liter=L Kilogramm=kg
//   status         = "open"                      (a fixed value, the same for every row)
//
// English keywords work too (column, date DD.MM.YYYY, decimalcomma, decimalpoint, unit, values). Fields may
// be named by their spec name or a short alias (datum, menge, einheit, partner, standort, produkt).
//
// This module is pure TypeScript without server or Node imports: the server validates and applies a code with
// it, and the editor island validates as the user types with the very same parser. Errors are codes with
// parameters, translated where they are shown (locales/*/bewegungsdaten-import.json, `code.errors.*` and
// `row.*`); every parse error names its line.
import { PRODUKTGRUPPEN } from '../../domain/fuels.js';
import { EINHEITEN } from '../../domain/units.js';
import { LIEFERUNG_NAMES, INCOTERMS, LIEFERSTATUS, type DeliveryResource } from '../lieferungen/names.js';

export type ImportTyp = DeliveryResource;

export type FieldKind = 'text' | 'decimal' | 'date' | 'unit' | 'choice';

export interface FieldDef {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** Other accepted spellings (case does not matter for any of them). */
  aliases: readonly string[];
  /** The values a choice field takes. */
  choices?: readonly string[];
}

/** The longest import code accepted (far beyond one line per field with comments). */
export const MAX_CODE_LENGTH = 20_000;

/** The fields an import code may set for a type, required ones first, in the order a delivery form shows them. */
export function fieldsOf(typ: ImportTyp): FieldDef[] {
  const n = LIEFERUNG_NAMES[typ];
  return [
    { name: 'nr', kind: 'text', required: true, aliases: ['nummer', 'number'] },
    { name: n.datum, kind: 'date', required: true, aliases: ['datum', 'date'] },
    { name: n.menge, kind: 'decimal', required: true, aliases: ['menge', 'quantity'] },
    { name: n.einheit, kind: 'unit', required: true, aliases: ['einheit', 'unit'], choices: EINHEITEN },
    { name: 'partnerNr', kind: 'text', required: true, aliases: ['partner'] },
    { name: 'standortNr', kind: 'text', required: true, aliases: ['standort', 'location'] },
    { name: 'produktNr', kind: 'text', required: true, aliases: ['produkt', 'product'] },
    { name: 'biogehalt', kind: 'decimal', required: false, aliases: ['biocontent'] },
    { name: 'produktgruppe', kind: 'choice', required: false, aliases: ['productgroup'], choices: PRODUKTGRUPPEN },
    { name: 'status', kind: 'choice', required: false, aliases: [], choices: LIEFERSTATUS },
    { name: 'typ', kind: 'text', required: false, aliases: ['type'] },
    { name: 'contractNumber', kind: 'text', required: false, aliases: ['vertrag', 'vertragsnummer', 'contract'] },
    { name: 'incoterm', kind: 'choice', required: false, aliases: [], choices: INCOTERMS },
    { name: 'vehicleName', kind: 'text', required: false, aliases: ['fahrzeug', 'vehicle'] },
    { name: 'kommentar', kind: 'text', required: false, aliases: ['bemerkung', 'comment'] },
  ];
}

/** The words of the code in each language: what a line may say after `|`, and the word before a column. */
export const KEYWORDS = {
  de: { column: 'Spalte', date: 'datum', decimalComma: 'dezimalkomma', decimalPoint: 'dezimalpunkt', unit: 'einheit', values: 'werte', datePattern: 'TT.MM.JJJJ' },
  en: { column: 'column', date: 'date', decimalComma: 'decimalcomma', decimalPoint: 'decimalpoint', unit: 'unit', values: 'values', datePattern: 'DD.MM.YYYY' },
} as const;

type Conversion = 'date' | 'decimalComma' | 'decimalPoint' | 'unit' | 'values';
/** Every word the parser accepts after `|` (German and English), with what it does: the user guide lists them all (docs/hilfe, checked by a test). */
export const CONVERSION_WORDS: Record<string, Conversion> = {
  datum: 'date', date: 'date',
  dezimalkomma: 'decimalComma', decimalcomma: 'decimalComma',
  dezimalpunkt: 'decimalPoint', decimalpoint: 'decimalPoint',
  einheit: 'unit', unit: 'unit',
  werte: 'values', values: 'values',
};
/** The words before a column's header. */
export const COLUMN_WORDS = new Set(['spalte', 'column']);

/** A date format: day, month and year in some order, with separators or fixed widths. */
export interface DatePattern {
  text: string;
  regex: RegExp;
  order: ('d' | 'm' | 'y' | 'yy')[];
}

export interface FieldRule {
  field: string;
  /** The field's kind (a date field reads a spreadsheet's date number as a day). */
  kind: FieldKind;
  line: number;
  source: { column: string } | { value: string };
  date?: DatePattern;
  decimal?: 'comma' | 'point';
  /** einheit/werte: file value (normalised) → stored value. */
  values?: Map<string, string>;
}

export interface MappingError {
  line: number;
  /** Key below `code.errors.` */
  code: string;
  params: Record<string, string | number>;
}

export interface Mapping {
  typ: ImportTyp;
  rules: FieldRule[];
}

// Tokens of one line ----------------------------------------------------------------------------------------

interface Token {
  kind: 'word' | 'text' | 'eq' | 'bar';
  value: string;
}

const OPENING_QUOTES = '"„“”';
const CLOSING_QUOTES = '"“”';
const isSpace = (ch: string) => /\s/.test(ch);

/** A line's tokens (a comment ends it), or the problem of an unclosed quote. */
function tokenize(line: string): { tokens: Token[] } | { error: string } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (isSpace(ch)) {
      i++;
    } else if (ch === '#') {
      break;
    } else if (ch === '=' || ch === '|') {
      tokens.push({ kind: ch === '=' ? 'eq' : 'bar', value: ch });
      i++;
    } else if (OPENING_QUOTES.includes(ch)) {
      let j = i + 1;
      while (j < line.length && !CLOSING_QUOTES.includes(line[j])) j++;
      if (j >= line.length) return { error: 'unclosedQuote' };
      tokens.push({ kind: 'text', value: line.slice(i + 1, j) });
      i = j + 1;
    } else {
      let j = i;
      while (j < line.length && !isSpace(line[j]) && !'=|#'.includes(line[j]) && !OPENING_QUOTES.includes(line[j])) j++;
      tokens.push({ kind: 'word', value: line.slice(i, j) });
      i = j;
    }
  }
  return { tokens };
}

// Pieces ------------------------------------------------------------------------------------------------------

/** Normalises what the file writes, for comparing: case, spacing and invisible characters do not matter. */
export function normalizeValue(s: string): string {
  return s.normalize('NFC').replace(/[\u00ad\u200b\ufeff]/g, '').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A column header, for matching a code's `Spalte "…"` with the file: case and spaces do not matter. */
export function normalizeHeader(s: string): string {
  return normalizeValue(s).replace(/ /g, '');
}

/** "TT.MM.JJJJ", "YYYY-MM-DD", "MM/DD/YY", "TTMMJJJJ" → a pattern; null when it is not one. */
export function parseDatePattern(text: string): DatePattern | null {
  const upper = text.trim().toUpperCase();
  const parts = upper.match(/TT|DD|MM|JJJJ|YYYY|JJ|YY|[.\-/ ]|./g) ?? [];
  const order: DatePattern['order'] = [];
  let source = '';
  const separated = parts.some((p) => /^[.\-/ ]$/.test(p));
  for (const p of parts) {
    if (p === 'TT' || p === 'DD') order.push('d');
    else if (p === 'MM') order.push('m');
    else if (p === 'JJJJ' || p === 'YYYY') order.push('y');
    else if (p === 'JJ' || p === 'YY') order.push('yy');
    else if (/^[.\-/ ]$/.test(p)) {
      source += p === ' ' ? '\\s+' : `\\${p}`;
      continue;
    } else return null;
    const last = order[order.length - 1];
    source += last === 'y' ? '(\\d{4})' : last === 'yy' ? '(\\d{2})' : separated ? '(\\d{1,2})' : '(\\d{2})';
  }
  const count = (k: string) => order.filter((o) => o === k || (k === 'y' && o === 'yy')).length;
  if (count('d') !== 1 || count('m') !== 1 || count('y') !== 1) return null;
  return { text: text.trim(), regex: new RegExp(`^${source}$`), order };
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** The field a word names (its name or an alias, any case), or null. */
function fieldByWord(defs: FieldDef[], word: string): FieldDef | null {
  const w = word.toLowerCase();
  return defs.find((d) => d.name.toLowerCase() === w) ?? defs.find((d) => d.aliases.includes(w)) ?? null;
}

function suggestion(defs: FieldDef[], word: string): string | null {
  const w = word.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const d of defs) {
    for (const candidate of [d.name, ...d.aliases]) {
      const distance = levenshtein(w, candidate.toLowerCase());
      if (distance <= Math.max(2, Math.floor(candidate.length / 4)) && (!best || distance < best.distance)) best = { name: d.name, distance };
    }
  }
  return best?.name ?? null;
}

const CONVERSION_FITS: Record<Conversion, (kind: FieldKind) => boolean> = {
  date: (k) => k === 'date',
  decimalComma: (k) => k === 'decimal',
  decimalPoint: (k) => k === 'decimal',
  unit: (k) => k === 'unit',
  values: (k) => k === 'text' || k === 'choice' || k === 'unit',
};

/** `Liter=L Kilogramm=kg` → pairs; null when the tokens are not pairs. */
function pairsOf(tokens: Token[]): [string, string][] | null {
  const pairs: [string, string][] = [];
  for (let i = 0; i < tokens.length; i += 3) {
    const [key, eq, value] = tokens.slice(i, i + 3);
    if (!key || !eq || !value || key.kind === 'eq' || key.kind === 'bar' || eq.kind !== 'eq' || (value.kind !== 'word' && value.kind !== 'text')) return null;
    pairs.push([key.value, value.value]);
  }
  return pairs;
}

// The parser --------------------------------------------------------------------------------------------------

/**
 * Parses an import code for a type. Returns the rules it could read and every problem, each with its line
 * (1-based); the mapping is usable only when there are no errors.
 */
export function parseMapping(text: string, typ: ImportTyp): { mapping: Mapping; errors: MappingError[] } {
  const defs = fieldsOf(typ);
  const rules: FieldRule[] = [];
  const errors: MappingError[] = [];
  const mapping = { typ, rules };
  if (text.length > MAX_CODE_LENGTH) {
    errors.push({ line: 1, code: 'tooLong', params: { max: MAX_CODE_LENGTH } });
    return { mapping, errors };
  }
  const lines = text.split(/\r\n|\r|\n/);
  let lastLine = 1;
  // Fields whose line is there but faulty: their line's error says enough, "missing" would be wrong.
  const attempted = new Set<string>();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const lineField = fieldByWord(defs, /^\s*([^\s=|#"„“”]+)/.exec(raw)?.[1] ?? '');
    const err = (code: string, params: Record<string, string | number> = {}) => {
      if (lineField) attempted.add(lineField.name);
      errors.push({ line, code, params });
    };
    const lexed = tokenize(raw);
    if ('error' in lexed) {
      lastLine = line;
      return err(lexed.error);
    }
    const { tokens } = lexed;
    if (!tokens.length) return;
    lastLine = line;
    const [first, second] = tokens;
    if (first.kind !== 'word') return err(first.kind === 'eq' ? 'missingField' : 'expectedField');
    if (!second || second.kind !== 'eq') return err('missingEquals', { field: first.value });
    const def = fieldByWord(defs, first.value);
    if (!def) {
      const suggested = suggestion(defs, first.value);
      return suggested ? err('unknownFieldSuggest', { field: first.value, suggestion: suggested }) : err('unknownField', { field: first.value, typ });
    }
    const earlier = rules.find((r) => r.field === def.name);
    if (earlier) return err('duplicateField', { field: def.name, first: earlier.line });

    // The rest: source | conversion | conversion …
    const segments: Token[][] = [[]];
    for (const tok of tokens.slice(2)) {
      if (tok.kind === 'bar') segments.push([]);
      else segments[segments.length - 1].push(tok);
    }
    const [source, ...conversions] = segments;
    const rule: FieldRule = { field: def.name, kind: def.kind, line, source: { value: '' } };
    if (!source.length) return err('missingSource', { field: def.name });
    const [s0, s1] = source;
    if (s0.kind === 'word' && COLUMN_WORDS.has(s0.value.toLowerCase())) {
      if (!s1) return err('missingColumnName', { word: s0.value });
      if (source.length > 2 || (s1.kind !== 'text' && s1.kind !== 'word')) return err('badSource', { text: source.map((t) => t.value).join(' ') });
      if (!s1.value.trim()) return err('emptyColumnName');
      rule.source = { column: s1.value.trim() };
    } else if (s0.kind === 'text' && source.length === 1) {
      rule.source = { value: s0.value };
    } else {
      return err(s0.kind === 'word' && source.length === 1 ? 'bareWord' : 'badSource', { text: source.map((t) => t.value).join(' ') });
    }

    const used = new Set<string>();
    for (const conversion of conversions) {
      const [word, ...args] = conversion;
      if (!word) return err('emptyConversion');
      const kind = word.kind === 'word' ? CONVERSION_WORDS[word.value.toLowerCase()] : undefined;
      if (!kind) return err('unknownConversion', { conversion: word.value });
      if (!CONVERSION_FITS[kind](def.kind)) return err('conversionNotForField', { conversion: word.value, field: def.name });
      const group = kind === 'decimalComma' || kind === 'decimalPoint' ? 'decimal' : kind === 'unit' ? 'values' : kind;
      if (used.has(group)) return err('duplicateConversion', { conversion: word.value });
      used.add(group);
      if (kind === 'date') {
        if (!args.length) return err('missingDatePattern', { conversion: word.value });
        const text = args.map((a) => a.value).join(args.every((a) => a.kind === 'word') ? ' ' : '');
        if (args.length > 1 && args.some((a) => a.kind !== 'word')) return err('badDatePattern', { pattern: text });
        const pattern = parseDatePattern(text);
        if (!pattern) return err('badDatePattern', { pattern: text });
        rule.date = pattern;
      } else if (kind === 'decimalComma' || kind === 'decimalPoint') {
        if (args.length) return err('noArguments', { conversion: word.value });
        rule.decimal = kind === 'decimalComma' ? 'comma' : 'point';
      } else {
        if (!args.length) return err('missingPairs', { conversion: word.value });
        const pairs = pairsOf(args);
        if (!pairs) return err('badPairs', { conversion: word.value, text: args.map((a) => a.value).join(' ') });
        const values = new Map<string, string>();
        for (const [from, to] of pairs) {
          const target = def.choices ? def.choices.find((c) => c.toLowerCase() === to.toLowerCase()) : to;
          if (target === undefined) {
            return err(kind === 'unit' ? 'badUnitTarget' : 'badValueTarget', { value: to, field: def.name, allowed: (def.choices ?? []).join(', ') });
          }
          values.set(normalizeValue(from), target);
        }
        rule.values = values;
      }
    }
    rules.push(rule);
  });
  for (const def of defs) {
    if (def.required && !rules.some((r) => r.field === def.name) && !attempted.has(def.name) && !errors.some((e) => e.params.suggestion === def.name)) {
      errors.push({ line: lastLine, code: 'missingRequired', params: { field: def.name } });
    }
  }
  return { mapping, errors };
}

// Applying a mapping to a file --------------------------------------------------------------------------------

/** The columns a mapping reads that the file's header row lacks, as the code names them. */
export function missingColumns(mapping: Mapping, headers: string[]): string[] {
  const present = new Set(headers.map(normalizeHeader));
  const missing: string[] = [];
  for (const r of mapping.rules) if ('column' in r.source && !present.has(normalizeHeader(r.source.column)) && !missing.includes(r.source.column)) missing.push(r.source.column);
  return missing;
}

/** A problem of one cell: the field, the code below `row.` and what the message names. */
export interface CellProblem {
  field: string;
  code: string;
  params: Record<string, string>;
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const GERMAN_NUMBER = /^[-+]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/;
const ENGLISH_NUMBER = /^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

function convertDate(value: string, pattern: DatePattern): string | null {
  const m = pattern.regex.exec(value);
  if (!m) return ISO.test(value) ? value : null; // XLSX date cells and ISO text are always understood
  let d = '';
  let mo = '';
  let y = '';
  pattern.order.forEach((part, i) => {
    const v = m[i + 1];
    if (part === 'd') d = v.padStart(2, '0');
    else if (part === 'm') mo = v.padStart(2, '0');
    else y = part === 'yy' ? `20${v}` : v;
  });
  return `${y}-${mo}-${d}`;
}

/** One field's value from a row: the column's cell or the fixed value, with the rule's conversions. */
export function applyRule(rule: FieldRule, raw: string, kind: 'text' | 'number' | 'date' = 'text'): { value: string } | { problem: CellProblem } {
  const value = raw.trim();
  const problem = (code: string, params: Record<string, string>) => ({ problem: { field: rule.field, code, params } });
  if (!value) return { value: '' };
  // A spreadsheet keeps a date as the number of days since 30 Dec 1899 (shown as a date only by its format).
  if (rule.kind === 'date' && kind === 'number' && /^\d{1,7}(\.\d+)?$/.test(value)) {
    return { value: new Date(Date.UTC(1899, 11, 30) + Math.floor(Number(value)) * 86_400_000).toISOString().slice(0, 10) };
  }
  if (rule.date) {
    if (kind === 'date') return { value };
    const iso = convertDate(value, rule.date);
    return iso ? { value: iso } : problem('dateFormat', { value, pattern: rule.date.text });
  }
  if (rule.decimal) {
    if (kind === 'number') return { value }; // a spreadsheet number is machine text already
    const compact = value.replace(/[\s\u00a0\u202f']/g, '');
    if (rule.decimal === 'comma') return GERMAN_NUMBER.test(compact) ? { value: compact.replace(/\./g, '').replace(',', '.') } : problem('decimalComma', { value });
    return ENGLISH_NUMBER.test(compact) ? { value: compact.replace(/,/g, '') } : problem('decimalPoint', { value });
  }
  if (rule.values) {
    const mapped = rule.values.get(normalizeValue(value));
    if (mapped !== undefined) return { value: mapped };
    // A value that already is a stored value passes, so a file may mix both ("Liter" and "L").
    if ([...rule.values.values()].some((v) => v === value)) return { value };
    return problem('notMapped', { value, known: [...rule.values.keys()].join(', ') });
  }
  return { value };
}

/**
 * A row reader for one file: its header row decides where each rule's column is. Returns each mapped field's
 * text, or the problems of the cells the conversions could not read.
 */
export function rowMapper(mapping: Mapping, headers: string[]) {
  const index = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = normalizeHeader(h);
    if (key && !index.has(key)) index.set(key, i);
  });
  /** The file's header of a field's column (as written there), or null for a fixed value or no rule. */
  const headerOf = (field: string): string | null => {
    const rule = mapping.rules.find((r) => r.field === field);
    if (!rule || !('column' in rule.source)) return null;
    const i = index.get(normalizeHeader(rule.source.column));
    return i === undefined ? rule.source.column : headers[i].trim();
  };
  const read = (cells: string[], kinds?: ('text' | 'number' | 'date')[]) => {
    const input: Record<string, string> = {};
    const problems: CellProblem[] = [];
    for (const rule of mapping.rules) {
      let raw = '';
      let kind: 'text' | 'number' | 'date' = 'text';
      if ('column' in rule.source) {
        const i = index.get(normalizeHeader(rule.source.column));
        raw = i === undefined ? '' : cells[i] ?? '';
        kind = (i !== undefined && kinds?.[i]) || 'text';
      } else raw = rule.source.value;
      const out = applyRule(rule, raw, kind);
      if ('problem' in out) problems.push(out.problem);
      else input[rule.field] = out.value;
    }
    return { input, problems };
  };
  return { headerOf, read };
}
