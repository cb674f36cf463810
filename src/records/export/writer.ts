// What every export writer gets besides the rows: the user's language, formats and the list's title and
// filter in words, and what it must declare for the HTTP answer.
import type { UserSettings } from '../../auth/current-user.js';
import type { Formatter } from '../../http/format.js';
import type { ExportSource } from './rows.js';
import type { Sink } from './sink.js';

export interface ExportContext {
  t: (key: string, options?: Record<string, unknown>) => string;
  fmt: Formatter;
  lang: string;
  /** The user's date format and time zone: spreadsheet cells carry dates, not text, and need both. */
  settings: Pick<UserSettings, 'dateFormat' | 'timezone'>;
  /** The list's title (the PDF's heading, the worksheet's name). */
  title: string;
  /** The filter, search and order in words (the line under the PDF's title). */
  description: string;
  /** When the export was made (the PDF's footer). */
  now: Date;
  /**
   * Lines after the sums, already translated (a report's explanations: the formula, the values that applied).
   * Every format prints them; lists have none.
   */
  notes?: string[];
  /**
   * A title page before the table (reports: tenant, period, parameters, when and by whom), as label and value
   * per line, already translated. PDF only; the spreadsheet formats carry the same lines in `notes` if wanted.
   */
  titelseite?: { zeilen: [string, string][] };
}

export interface ExportWriter {
  contentType: string;
  extension: string;
  /**
   * Rows to read per round trip. The rows of the chunk read ahead survive every young-generation collection
   * that formatting the current one causes, and end in the old generation, which is collected rarely: the
   * more a writer allocates per row, the fewer rows it should hold in flight (bench/README.md).
   */
  chunkSize: number;
  /**
   * Writes the whole file to the sink, a chunk of rows at a time, and ends it; returns quietly when the client
   * goes away. Throws when reading fails: after the first byte the caller must cut the connection, so the
   * client never keeps an incomplete file that looks whole.
   */
  write<R>(source: ExportSource<R>, ctx: ExportContext, sink: Sink): Promise<void>;
}
