// The navigation drawer below 768 px. Without JavaScript the header's menu link opens the sidebar by its
// fragment (#sidebar, :target in main.css) and the drawer's close link goes to #main. With it, the link becomes a
// toggle button: focus moves into the drawer and stays there (Tab and Shift+Tab cycle through its controls, as in
// a modal dialog, since the drawer covers the page), Escape, the close button or a click beside the drawer closes
// it, and focus returns to the menu button.
const NARROW = '(max-width: 767.98px)';
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The drawer's controls that can take focus now, in tab order (hidden ones, e.g. in a closed group, left out). */
export function focusablesIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0 && !el.closest('[inert]'));
}

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
    if (!isOpen()) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') {
      // The focus trap: past the last control back to the first, before the first on to the last.
      const items = focusablesIn(drawer);
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement as HTMLElement | null;
      const inside = !!active && drawer.contains(active);
      if (e.shiftKey && (!inside || active === first)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || active === last)) {
        e.preventDefault();
        first.focus();
      }
    }
  });
  document.addEventListener('click', (e) => {
    if (isOpen() && !drawer.contains(e.target as Node) && !opener.contains(e.target as Node)) close(false);
  });
  // Focus reaching the page behind the open drawer some other way (a screen reader's cursor, an access key) is
  // brought back into it, so nothing hidden behind it gets focus unseen.
  document.addEventListener('focusin', (e) => {
    if (isOpen() && !drawer.contains(e.target as Node) && e.target !== opener) focusablesIn(drawer)[0]?.focus();
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
