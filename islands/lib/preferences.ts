// Theme and sidebar: the forms post to the server (works without JavaScript); here they switch at once and
// set the same cookie, so the next page is rendered the same way from its first byte. The theme is also kept
// under `darkMode` in localStorage, as the spec names it.
import { iconHref } from './icons';

const ONE_YEAR = 365 * 24 * 3600;

function setCookie(name: string, value: string) {
  document.cookie = `${name}=${value}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
}

export function enhancePreferences(): void {
  const themeForm = document.querySelector<HTMLFormElement>('form[data-theme-toggle]');
  themeForm?.addEventListener('submit', (event) => {
    event.preventDefault();
    const root = document.documentElement;
    const next = root.dataset.theme === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    setCookie('theme', next);
    try {
      localStorage.setItem('darkMode', String(next === 'dark'));
    } catch {
      /* storage may be disabled */
    }
    const button = themeForm.querySelector('button');
    const use = themeForm.querySelector('use');
    const label = next === 'dark' ? themeForm.dataset.labelToLight : themeForm.dataset.labelToDark;
    if (button && label) {
      button.setAttribute('aria-label', label);
      button.title = label;
    }
    use?.setAttribute('href', iconHref(next === 'dark' ? 'sun' : 'moon'));
    (themeForm.querySelector('input[name=value]') as HTMLInputElement).value = next === 'dark' ? 'light' : 'dark';
  });

  const sidebarForm = document.querySelector<HTMLFormElement>('form[data-sidebar-toggle]');
  sidebarForm?.addEventListener('submit', (event) => {
    event.preventDefault();
    const collapsed = document.body.classList.toggle('sidebar-collapsed');
    setCookie('sidebar', collapsed ? 'collapsed' : 'expanded');
    const button = sidebarForm.querySelector('button')!;
    button.setAttribute('aria-expanded', String(!collapsed));
    const label = collapsed ? button.dataset.labelExpand : button.dataset.labelCollapse;
    if (label) {
      button.setAttribute('aria-label', label);
      button.title = label;
    }
    (sidebarForm.querySelector('input[name=value]') as HTMLInputElement).value = collapsed ? 'expanded' : 'collapsed';
  });

  // Collapsed sidebar: clicking a group opens its first permitted page (spec section 2).
  document.querySelectorAll<HTMLElement>('.nav-group > summary').forEach((summary) => {
    summary.addEventListener('click', (event) => {
      if (!document.body.classList.contains('sidebar-collapsed')) return;
      const href = summary.parentElement?.dataset.firstHref;
      if (href) {
        event.preventDefault();
        window.location.href = href;
      }
    });
  });
}
