// The import's inputs (validated at the edge) and the shapes of its preview, staging and result.
import { z } from 'zod';

/** The token of a staged import (its id): anything else is simply not found. */
export const Token = z.uuid();
export const CommitBody = z.object({ token: Token });

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
}

export interface Summary {
  counts: Counts;
  dataRows: number;
  /** The first PREVIEW_ROWS rows, then refused rows up to a limit, in file order. */
  rows: PreviewRow[];
  /** Every error up to a limit; errorCount tells how many there are in all. */
  errors: RowError[];
  errorCount: number;
  /** Refused rows beyond the first PREVIEW_ROWS that are listed / that exist. */
  refusedListed: number;
  refusedBeyond: number;
  /** Number of staged chunks of valid rows (0 when a row was refused: such an import cannot be committed). */
  chunks: number;
}

/** A valid row waiting for the commit: the schema's output for all fields. */
export interface StagedRow {
  row: number;
  nr: string;
  values: Record<string, unknown>;
}
