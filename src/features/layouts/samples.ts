// Sample rows for the UI kit's table and pagination pages. Made up, deterministic, never stored: they only
// give the list partials something realistic to show (German domain data, as the real lists will have).
export type SampleStatus = 'open' | 'locked' | 'inProgress' | 'completed' | 'cancelled';

export interface SampleDelivery {
  nr: string;
  produkt: string;
  standort: string;
  /** Litres. */
  menge: number;
  /** ISO date (yyyy-MM-dd). */
  datum: string;
  status: SampleStatus;
}

export const SAMPLE_SORT_KEYS = ['nr', 'produkt', 'standort', 'menge', 'datum'] as const;
export type SampleSortKey = (typeof SAMPLE_SORT_KEYS)[number];

/** Badge variant per status: the colour only supports the status text, it never replaces it. */
export const STATUS_VARIANT: Record<SampleStatus, 'neutral' | 'info' | 'success' | 'warning' | 'error'> = {
  open: 'info',
  locked: 'neutral',
  inProgress: 'warning',
  completed: 'success',
  cancelled: 'error',
};

const PRODUKTE = ['Diesel B7', 'HVO100', 'Biodiesel B100', 'Super E10', 'Bioethanol E85', 'Pflanzenöl'];
const STANDORTE = ['Hamburg-Harburg', 'Duisburg-Ruhrort', 'Karlsruhe Rheinhafen', 'Leipzig Nord'];
const STATUSES: SampleStatus[] = ['completed', 'completed', 'inProgress', 'open', 'locked', 'completed', 'cancelled'];

export const SAMPLE_DELIVERIES: readonly SampleDelivery[] = Array.from({ length: 23 }, (_, i) => {
  const day = new Date(Date.UTC(2023, 11, 31 - i * 2));
  return {
    nr: `E-2023-${String(142 - i).padStart(4, '0')}`,
    produkt: PRODUKTE[(i * 5) % PRODUKTE.length],
    standort: STANDORTE[(i * 3) % STANDORTE.length],
    menge: 8_000 + ((i * 7_919) % 27_000),
    datum: day.toISOString().slice(0, 10),
    status: STATUSES[i % STATUSES.length],
  };
});

export const SAMPLE_PAGE_SIZE = 10;

export interface SamplePage {
  rows: SampleDelivery[];
  total: number;
  page: number;
  pageSize: number;
  sort: { key: SampleSortKey; dir: 'asc' | 'desc' };
}

/** Sorts and pages the sample rows; a page beyond the end shows the last page. */
export function pageOfDeliveries(query: { sort: SampleSortKey; dir: 'asc' | 'desc'; page: number }, pageSize = SAMPLE_PAGE_SIZE): SamplePage {
  const sign = query.dir === 'asc' ? 1 : -1;
  const sorted = [...SAMPLE_DELIVERIES].sort((a, b) => {
    const x = a[query.sort];
    const y = b[query.sort];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'de');
    // Ties keep a stable, predictable order: by number.
    return sign * order || a.nr.localeCompare(b.nr);
  });
  const pages = Math.max(1, Math.ceil(sorted.length / pageSize));
  const page = Math.min(query.page, pages);
  return {
    rows: sorted.slice((page - 1) * pageSize, page * pageSize),
    total: sorted.length,
    page,
    pageSize,
    sort: { key: query.sort, dir: query.dir },
  };
}

/** The pagination page's live example: 95 results, 10 per page. */
export const PAGINATION_DEMO = { total: 95, pageSize: 10 } as const;
