// What a new user starts from: per type an example file (docs/import-beispiel-einlieferungen.csv and
// …-ablieferungen.csv, also the page's template download) and the default import code that reads it. Both are
// made from the one table below, so file and code cannot drift apart (defaults.test.ts compares the docs files).
import { stringify } from 'csv-stringify/sync';
import { LIEFERUNG_NAMES } from '../lieferungen/names.js';
import { KEYWORDS, type ImportTyp } from './mapping.js';

type Convert = 'date' | 'decimal' | 'unit' | null;

interface ExampleColumn {
  header: string;
  /** The field the column feeds ('datum', 'menge', 'einheit' stand for the type's spec names). */
  field: string;
  convert: Convert;
}

const columns = (nrHeader: string, dateHeader: string, partnerHeader: string): ExampleColumn[] => [
  { header: nrHeader, field: 'nr', convert: null },
  { header: dateHeader, field: 'datum', convert: 'date' },
  { header: partnerHeader, field: 'partnerNr', convert: null },
  { header: 'Standort', field: 'standortNr', convert: null },
  { header: 'Produkt', field: 'produktNr', convert: null },
  { header: 'Menge', field: 'menge', convert: 'decimal' },
  { header: 'Einheit', field: 'einheit', convert: 'unit' },
  { header: 'Bioanteil %', field: 'biogehalt', convert: 'decimal' },
  { header: 'Vertrag', field: 'contractNumber', convert: null },
  { header: 'Incoterm', field: 'incoterm', convert: null },
  { header: 'Fahrzeug', field: 'vehicleName', convert: null },
  { header: 'Bemerkung', field: 'kommentar', convert: null },
];

/** The example files: as a German ERP exports them (`;`, decimal comma, dates TT.MM.JJJJ, units in words). */
export const EXAMPLES: Record<ImportTyp, { columns: ExampleColumn[]; rows: string[][] }> = {
  einlieferungen: {
    columns: columns('Lieferschein', 'Entladedatum', 'Lieferant'),
    rows: [
      ['EL-2025-0001', '03.11.2025', 'TP001', '1001', 'P001', '31.500', 'Liter', '7', 'V-2025-117', 'DAP', 'HH-TK 412', ''],
      ['EL-2025-0002', '04.11.2025', 'TP007', '1001', 'P013', '24.000,5', 'Liter', '100', 'V-2025-118', 'FCA', 'HH-TK 412', 'Anhang IX Teil B'],
      ['EL-2025-0003', '05.11.2025', 'TP002', '1002', 'P017', '18.250', 'Kilogramm', '100', '', 'DAP', 'H-KW 2201', ''],
      ['EL-2025-0004', '05.11.2025', 'TP013', '1004', 'P009', '40.000', 'Liter', '', 'V-2025-120', 'CPT', 'Kesselwagenzug 47110', 'Bioanteil laut Produkt'],
      ['EL-2025-0005', '06.11.2025', 'TP005', '1011', 'P021', '12.800,25', 'Liter', '85', '', 'EXW', 'F-TK 301', ''],
    ],
  },
  ablieferungen: {
    columns: columns('Belegnummer', 'Lieferdatum', 'Kunde'),
    rows: [
      ['AL-2025-0001', '03.11.2025', 'TP020', '1001', 'P001', '8.000', 'Liter', '7', 'K-2025-031', 'DAP', 'HH-TK 412', ''],
      ['AL-2025-0002', '04.11.2025', 'TP011', '1002', 'P009', '12.500,5', 'Liter', '', 'K-2025-032', 'DDP', 'H-KW 2201', 'Tankstellenbelieferung'],
      ['AL-2025-0003', '05.11.2025', 'TP015', '1004', 'P017', '6.400', 'Kilogramm', '100', '', 'FCA', 'HL-TS 19', ''],
    ],
  },
};

/** The example file as CSV (UTF-8 with BOM, `;`, CRLF: what German spreadsheet programs open directly). */
export function exampleCsv(typ: ImportTyp): string {
  const { columns: cols, rows } = EXAMPLES[typ];
  return stringify([cols.map((c) => c.header), ...rows], { delimiter: ';', bom: true, record_delimiter: 'windows' });
}

/** The file name of the example (and of its copy in docs/). */
export const exampleFilename = (typ: ImportTyp) => `import-beispiel-${typ}.csv`;

/**
 * The default import code of a type, in the keywords of a language (`comments` come first, each as `# …`):
 * one line per column of the example file, the `=` signs aligned.
 */
export function defaultCode(typ: ImportTyp, lang: 'de' | 'en', comments: string[]): string {
  const k = KEYWORDS[lang];
  const names = LIEFERUNG_NAMES[typ];
  const fieldName = (f: string) => (f === 'datum' ? names.datum : f === 'menge' ? names.menge : f === 'einheit' ? names.einheit : f);
  const cols = EXAMPLES[typ].columns;
  const width = Math.max(...cols.map((c) => fieldName(c.field).length));
  const conversion: Record<Exclude<Convert, null>, string> = {
    date: `${k.date} ${k.datePattern}`,
    decimal: k.decimalComma,
    unit: `${k.unit} Liter=L Kilogramm=kg`,
  };
  const lines = cols.map((c) => `${fieldName(c.field).padEnd(width)} = ${k.column} "${c.header}"${c.convert ? ` | ${conversion[c.convert]}` : ''}`);
  return [...comments.map((c) => `# ${c}`), ...lines].join('\n') + '\n';
}
