// The list's state in words, for a file that leaves the page: which filter, search and order made it
// ("Filter: Status: Abgeschlossen; Von: 01.01.2025 · Suche: „Kiel“ · sortiert nach Datum, absteigend").
import type { Formatter } from '../../http/format.js';
import type { ListDefinition, ListSource, ListState } from '../list/engine.js';

type T = (key: string, options?: Record<string, unknown>) => string;

/** `def` with its choices filled in (withChoices), so a chosen location reads as its name. */
export function describeList<R, S extends ListSource>(def: ListDefinition<R, S>, state: ListState, t: T, fmt: Formatter): string {
  const filters = def.filters
    .filter((f) => state.filters[f.key] !== undefined)
    .map((f) => {
      const value = state.filters[f.key];
      let shown = value;
      if (f.kind === 'boolean') shown = t(value === 'true' ? 'list.yes' : 'list.no');
      else if (f.kind === 'dateFrom' || f.kind === 'dateTo') shown = fmt.date(value);
      else if (f.kind === 'select') {
        const option = f.options?.find((o) => o.value === value);
        if (option) shown = option.raw ? option.label : t(option.label);
      }
      return `${t(f.label)}: ${shown}`;
    });
  const column = def.columns.find((c) => c.key === state.sort.key);
  return [
    filters.length ? t('list.exportFilter', { filters: filters.join('; ') }) : t('list.exportNoFilter'),
    state.q ? t('list.exportSearch', { q: state.q }) : null,
    column ? t('list.exportSort', { column: t(column.label), dir: t(state.sort.dir === 'asc' ? 'list.ascending' : 'list.descending') }) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}
