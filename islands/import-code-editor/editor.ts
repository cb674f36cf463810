// What the import-code editor shows, computed without the DOM: the code's problems per line in the user's
// language (the same parser as the server's, src/features/bewegungsdaten-import/mapping.ts), and where a line
// starts, to put the caret there.
import { parseMapping, type ImportTyp } from '../../src/features/bewegungsdaten-import/mapping';

/** "Zeile {{line}}: {{message}}" with its values; i18next's format suffixes ({{max, number}}) are dropped. */
export function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)(?:\s*,[^}]*)?\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export interface Diagnostic {
  line: number;
  message: string;
}

/** The code's problems, each with its line and its text from `messages` (code → template). */
export function diagnose(text: string, typ: ImportTyp, messages: Record<string, string>): Diagnostic[] {
  return parseMapping(text, typ).errors.map((e) => ({ line: e.line, message: fill(messages[e.code] ?? e.code, e.params) }));
}

/** How many lines the textarea shows (a trailing newline opens one more). */
export const lineCount = (text: string) => text.split(/\r\n|\r|\n/).length;

/** The offsets where a line starts and ends (1-based line), for setSelectionRange. */
export function lineRange(text: string, line: number): [number, number] {
  const lines = text.split(/\r\n|\r|\n/);
  let start = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length - 1); i++) start += lines[i].length + (text.slice(start + lines[i].length, start + lines[i].length + 2) === '\r\n' ? 2 : 1);
  return [start, start + (lines[Math.min(line, lines.length) - 1]?.length ?? 0)];
}
