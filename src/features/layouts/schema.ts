// Query parameters of the UI kit pages, validated at the edge. The kit pages are demos: anything unexpected
// falls back to the default instead of failing, so a hand-edited URL still shows a working page.
import { z } from 'zod';
import { SAMPLE_SORT_KEYS } from './samples.js';

/** /layouts/tabs-group?tab=2: the open tab (1-based). */
export const TabsQuery = z.object({
  tab: z.coerce.number().int().min(1).max(4).catch(1),
});

/** /layouts/button-group?zeitraum=woche&einheit=kg: the two segmented controls. */
export const SEGMENT_PERIODS = ['tag', 'woche', 'monat', 'jahr'] as const;
export const SEGMENT_UNITS = ['l', 'kg'] as const;
export const SegmentQuery = z.object({
  zeitraum: z.enum(SEGMENT_PERIODS).catch('monat'),
  einheit: z.enum(SEGMENT_UNITS).catch('l'),
});

/** /layouts/table?sort=menge&dir=asc&page=2 and /layouts/pagination?page=4. */
export const ListQuery = z.object({
  sort: z.enum(SAMPLE_SORT_KEYS).catch('datum'),
  dir: z.enum(['asc', 'desc']).catch('desc'),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type ListQuery = z.infer<typeof ListQuery>;
