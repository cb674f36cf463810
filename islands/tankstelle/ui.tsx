// The server's small view partials (views/partials/ui: badge, alert, stat) as components, with the same markup and
// classes, so the island's views look exactly like the server's.
import type { ReactNode } from 'react';
import type { BadgeVariante } from '../../src/features/tankstelle/insel';
import { iconHref } from '../lib/icons';

export function Badge({ label, variante, icon }: { label: string; variante: BadgeVariante; icon?: string | null }) {
  return (
    <span className={`badge badge-${variante}${icon ? ' badge-with-icon' : ''}`}>
      {icon && <svg className="icon" aria-hidden="true"><use href={iconHref(icon)} /></svg>}
      {label}
    </span>
  );
}

/** A message that is simply on the page (no live region): an empty list, a tank without stock. */
export function Hinweis({ text }: { text: string }) {
  return (
    <div className="alert alert-info">
      <svg className="icon" aria-hidden="true"><use href={iconHref('info')} /></svg>
      <div>
        <p>{text}</p>
      </div>
    </div>
  );
}

export function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat">
      <dt className="stat-label">{label}</dt>
      <dd className="stat-value">{value}</dd>
    </div>
  );
}

/** A table in a focusable region that scrolls sideways, named like its (hidden) caption: the server views' `table-wrap`. */
export function Tabelle({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className={className ? `table ${className}` : 'table'}>
        <caption className="visually-hidden">{label}</caption>
        {children}
      </table>
    </div>
  );
}
