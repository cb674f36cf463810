// The imports' common inputs (validated at the edge) and the shapes of a preview, its staging and result, shared
// by the master-data and the movement-data import.
import { z } from 'zod';

/** The token of a staged import (its id): anything else is simply not found. */
export const Token = z.uuid();
export const CommitBody = z.object({ token: Token });

/** i18n lookup in the user's language (req.t), as services and presenters receive it. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

export type RowStatus = 'create' | 'update' | 'unchanged' | 'refused';

export interface Counts {
  create: number;
  update: number;
  unchanged: number;
  refused: number;
}

/** One problem of one row: the row as numbered in the spreadsheet (header = 1), the column as headed there. */
export interface RowError {
  row: number;
  column: string | null;
  /** The field the value was meant for, where the column alone does not say it (a mapped import). */
  field?: string;
  /** i18n key, translated when shown. */
  message: string;
  params?: Record<string, unknown>;
}

export interface RowChange {
  field: string;
  column: string | null;
  before: unknown;
  after: unknown;
}

export interface PreviewRow {
  row: number;
  nr: string;
  /** The row's first field as written (usually the name), so the user recognises the row. */
  title: string;
  status: RowStatus;
  changes?: RowChange[];
  errors?: RowError[];
  /** What the row's checks found worth a second look without refusing it (a certificate's `hinweise`). */
  warnings?: RowError[];
  /** The record as it would be stored (first rows only, for imports that show it). */
  values?: Record<string, unknown>;
}

export interface Summary {
  counts: Counts;
  dataRows: number;
  /** The first PREVIEW_ROWS rows, then refused rows up to a limit, in file order. */
  rows: PreviewRow[];
  /** Every error up to a limit; errorCount tells how many there are in all. */
  errors: RowError[];
  errorCount: number;
  /** Rows that are not refused but carry warnings; their warnings up to a limit, and how many there are. */
  warned: number;
  warnings: RowError[];
  warningCount: number;
  /** Refused rows beyond the first PREVIEW_ROWS that are listed / that exist. */
  refusedListed: number;
  refusedBeyond: number;
  /** Number of staged chunks of valid rows (0 when a row was refused: such an import cannot be committed). */
  chunks: number;
  /** What else the import wants to remember for its pages (e.g. the import code it used). */
  meta?: Record<string, unknown>;
}

/** A valid row waiting for the commit: the schema's output for all fields. */
export interface StagedRow {
  row: number;
  nr: string;
  values: Record<string, unknown>;
}
