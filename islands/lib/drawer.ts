// The navigation drawer below 768 px. Without JavaScript the header's menu link opens the sidebar by its
// fragment (#sidebar, :target in main.css) and the drawer's close link goes to #main. With it, the link becomes a
// toggle button: focus moves into the drawer, Escape, the close button or a click beside the drawer closes it,
// and focus returns to the menu button.
const NARROW = '(max-width: 767.98px)';

export function enhanceDrawer(): void {
  const opener = document.querySelector<HTMLAnchorElement>('[data-drawer-open]');
  const drawer = document.getElementById('sidebar');
  if (!opener || !drawer) return;
  const closer = drawer.querySelector<HTMLElement>('[data-drawer-close]');
  const narrow = window.matchMedia(NARROW);
  opener.setAttribute('role', 'button');
  opener.setAttribute('aria-expanded', 'false');

  const isOpen = () => drawer.classList.contains('is-open');
  function open() {
    drawer!.classList.add('is-open');
    opener!.setAttribute('aria-expanded', 'true');
    (closer ?? drawer!.querySelector<HTMLElement>('a, button'))?.focus();
  }
  function close(returnFocus = true) {
    if (!isOpen()) return;
    drawer!.classList.remove('is-open');
    opener!.setAttribute('aria-expanded', 'false');
    if (returnFocus) opener!.focus();
  }

  // A page opened with #sidebar (the link followed before this script ran) shows the drawer the same way.
  if (window.location.hash === '#sidebar' && narrow.matches) {
    history.replaceState(null, '', window.location.pathname + window.location.search);
    open();
  }
  opener.addEventListener('click', (e) => {
    e.preventDefault();
    if (isOpen()) close();
    else open();
  });
  // role="button" answers Space as a button does (Enter already follows the link).
  opener.addEventListener('keydown', (e) => {
    if (e.key === ' ') {
      e.preventDefault();
      opener.click();
    }
  });
  closer?.addEventListener('click', (e) => {
    e.preventDefault();
    close();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      e.preventDefault();
      close();
    }
  });
  document.addEventListener('click', (e) => {
    if (isOpen() && !drawer.contains(e.target as Node) && !opener.contains(e.target as Node)) close(false);
  });
  // Focus leaving the drawer (Tab past its end) closes it, so nothing hidden behind it gets focus unseen.
  document.addEventListener('focusin', (e) => {
    if (isOpen() && !drawer.contains(e.target as Node) && e.target !== opener) close(false);
  });
  narrow.addEventListener('change', () => close(false));
}

/**
 * Lists: wider than 768 px the filter form always shows (CSS via ::details-content); where a browser cannot
 * style that, the disclosure is opened here, so the filters are never hidden on a desktop.
 */
export function openWideFilters(): void {
  if (window.matchMedia('(min-width: 768px)').matches && !CSS.supports('selector(::details-content)')) {
    document.querySelectorAll<HTMLDetailsElement>('details[data-list-filters]').forEach((d) => (d.open = true));
  }
}

/** Cells cut off with an ellipsis get their full text as a tooltip (title), only where the text is cut. */
export function titleTruncatedCells(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>('.list-filter-toggle ~ .table-wrap td, .list-filter-toggle ~ .table-wrap th[scope="row"]').forEach((cell) => {
    const target = cell.querySelector<HTMLElement>('a') ?? cell;
    if (cell.scrollWidth > cell.clientWidth + 1 && !target.title) target.title = cell.textContent?.trim() ?? '';
  });
}
