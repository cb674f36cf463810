// Toasts (spec section 9): top right in the shell (offset 20, gap 16), 356 px wide, 4000 ms, at most three
// visible, Alt+T moves focus to them, swipe (20 px or velocity above 0.11 px/ms) dismisses. Server flash
// messages arrive as list items in #toaster; islands call toast() and get the same behaviour.
import { iconHref } from './icons';

export type ToastType = 'default' | 'success' | 'info' | 'warning' | 'error' | 'loading';

export const TOAST_DURATION_MS = 4000;
export const TOAST_MAX_VISIBLE = 3;
const SWIPE_DISTANCE_PX = 20;
const SWIPE_VELOCITY = 0.11;

const ICONS: Record<ToastType, string> = {
  default: 'i-info', success: 'i-check', info: 'i-info', warning: 'i-warning', error: 'i-warning', loading: 'i-info',
};

let counter = 0;

function list(): HTMLOListElement | null {
  return document.querySelector('#toaster .toast-list');
}

function dismiss(item: HTMLElement) {
  if (item.dataset.leaving) return;
  item.dataset.leaving = '1';
  item.classList.add('is-leaving');
  const remove = () => {
    item.remove();
    updateVisibility();
  };
  item.addEventListener('transitionend', remove, { once: true });
  setTimeout(remove, 300);
}

/** Only the newest three are shown; the others wait their turn. */
function updateVisibility() {
  const items = Array.from(list()?.children ?? []) as HTMLElement[];
  const active = items.filter((i) => !i.dataset.leaving);
  active.forEach((item, index) => {
    const hidden = index < active.length - TOAST_MAX_VISIBLE;
    item.hidden = hidden;
    if (!hidden && !item.dataset.timer) startTimer(item);
  });
}

function startTimer(item: HTMLElement) {
  const duration = Number(item.dataset.duration ?? TOAST_DURATION_MS);
  if (!Number.isFinite(duration) || duration <= 0) return;
  let remaining = duration;
  let started = Date.now();
  let handle = window.setTimeout(() => dismiss(item), remaining);
  item.dataset.timer = String(handle);
  // Hovering or focusing a toast pauses it, so it can be read.
  const pause = () => {
    window.clearTimeout(handle);
    remaining -= Date.now() - started;
  };
  const resume = () => {
    started = Date.now();
    handle = window.setTimeout(() => dismiss(item), Math.max(remaining, 1000));
  };
  item.addEventListener('mouseenter', pause);
  item.addEventListener('mouseleave', resume);
  item.addEventListener('focusin', pause);
  item.addEventListener('focusout', resume);
}

function addCloseButton(item: HTMLElement) {
  const label = document.getElementById('toaster')?.dataset.closeLabel ?? 'Close';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'toast-close btn btn-icon btn-ghost';
  button.setAttribute('aria-label', label);
  button.innerHTML = `<svg class="icon" aria-hidden="true"><use href="${iconHref('close')}"></use></svg>`;
  button.addEventListener('click', () => dismiss(item));
  item.append(button);
}

function enableSwipe(item: HTMLElement) {
  let startX = 0;
  let startTime = 0;
  let dragging = false;
  item.addEventListener('pointerdown', (e) => {
    if ((e.target as HTMLElement).closest('button')) return;
    dragging = true;
    startX = e.clientX;
    startTime = performance.now();
    item.setPointerCapture(e.pointerId);
  });
  item.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const dx = Math.max(0, e.clientX - startX);
    item.style.transform = `translateX(${dx}px)`;
  });
  const end = (e: PointerEvent) => {
    if (!dragging) return;
    dragging = false;
    const dx = e.clientX - startX;
    const velocity = Math.abs(dx) / Math.max(1, performance.now() - startTime);
    if (dx >= SWIPE_DISTANCE_PX || velocity > SWIPE_VELOCITY) dismiss(item);
    else item.style.transform = '';
  };
  item.addEventListener('pointerup', end);
  item.addEventListener('pointercancel', end);
}

function enhanceItem(item: HTMLElement) {
  if (item.dataset.enhanced) return;
  item.dataset.enhanced = '1';
  addCloseButton(item);
  enableSwipe(item);
}

export interface ToastOptions {
  title: string;
  description?: string;
  type?: ToastType;
  duration?: number;
}

/** Shows a toast; returns its id. Used by islands and by the shell itself. */
export function toast({ title, description, type = 'default', duration = TOAST_DURATION_MS }: ToastOptions): string {
  const target = list();
  const id = `toast-${++counter}`;
  if (!target) return id;
  const item = document.createElement('li');
  item.id = id;
  item.className = `toast toast-${type}`;
  item.dataset.duration = String(duration);
  item.innerHTML = `<svg class="icon" aria-hidden="true"><use href="#${ICONS[type]}"></use></svg>`;
  // The live-region role sits inside the list item, so the list keeps its list semantics.
  const text = document.createElement('div');
  text.setAttribute('role', type === 'error' ? 'alert' : 'status');
  const p = document.createElement('p');
  p.className = 'toast-title';
  p.textContent = title;
  text.append(p);
  if (description) {
    const d = document.createElement('p');
    d.className = 'toast-description';
    d.textContent = description;
    text.append(d);
  }
  item.append(text);
  target.append(item);
  enhanceItem(item);
  updateVisibility();
  return id;
}

export function enhanceToasts(): void {
  const region = document.getElementById('toaster');
  if (!region) return;
  region.classList.add('is-enhanced');
  list()?.querySelectorAll<HTMLElement>('.toast').forEach(enhanceItem);
  updateVisibility();
  document.addEventListener('keydown', (e) => {
    if (e.altKey && (e.key === 't' || e.key === 'T' || e.code === 'KeyT')) {
      e.preventDefault();
      region.focus();
    }
  });
  (window as unknown as { portalToast: typeof toast }).portalToast = toast;
}
