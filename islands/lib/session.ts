// Session lifetime in the browser (spec sections 4 and 9). Activity (mouse, keys, clicks, scroll, touch, tab
// visibility, finished API calls) is stored as last_activity_time in localStorage, so all tabs share it. The
// header countdown appears after 30 s without activity, ticks every second and restarts on activity; at zero
// the user is logged out and sent to login with the current path. Every 15 minutes the session is validated
// (keeping it alive when the user was active), and every 5 minutes an inactive user's session is checked
// without extending it.
import { api, clearRedirectFlag, redirectToLogin, shellConfig, type ShellConfig } from './api';

const ACTIVITY_KEY = 'last_activity_time';
const VALIDATE_EVERY_MS = 15 * 60_000;
const MONITOR_EVERY_MS = 5 * 60_000;
const INACTIVE_CHECK_AFTER_MS = 5 * 60_000;
const EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart', 'click'] as const;

function readActivity(): number {
  try {
    return Number(localStorage.getItem(ACTIVITY_KEY)) || Date.now();
  } catch {
    return Date.now();
  }
}

function format(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export function startSessionWatch(config: ShellConfig | null = shellConfig()): void {
  if (!config) return;
  if (/^\/(de|en)\/login/.test(window.location.pathname)) clearRedirectFlag();
  const countdown = document.getElementById('session-countdown');
  if (!countdown) return; // not signed in
  clearRedirectFlag();

  let ended = false;
  let lastActivity = Date.now();
  let activeSinceValidation = false;
  let lastWrite = 0;
  const markActive = () => {
    lastActivity = Date.now();
    activeSinceValidation = true;
    if (lastActivity - lastWrite > 1000) {
      lastWrite = lastActivity;
      try {
        localStorage.setItem(ACTIVITY_KEY, String(lastActivity));
      } catch {
        /* storage may be disabled */
      }
    }
    tick();
  };
  markActive();
  for (const type of EVENTS) window.addEventListener(type, markActive, { passive: true });
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && markActive());
  window.addEventListener('portal:activity', markActive);
  // Activity in another tab counts here too.
  window.addEventListener('storage', (e) => {
    if (e.key === ACTIVITY_KEY) lastActivity = Math.max(lastActivity, readActivity());
  });

  function tick() {
    if (ended) return;
    const idle = Date.now() - Math.max(lastActivity, readActivity());
    if (idle < config!.countdownAfterMs) {
      countdown!.hidden = true;
      return;
    }
    const remaining = config!.idleMs - idle;
    countdown!.hidden = false;
    // The label ("Abmeldung in") and icon stay; only the time changes.
    (countdown!.querySelector('[data-countdown-time]') ?? countdown!).textContent = format(remaining);
    if (remaining <= 0) {
      ended = true;
      redirectToLogin(config!, 'expired');
    }
  }
  window.setInterval(tick, 1000);

  const check = (activity: 'active' | 'idle') =>
    api('/api/v1/account/session', { headers: { 'X-Activity': activity } }, config).catch(() => undefined);
  window.setInterval(() => {
    void check(activeSinceValidation ? 'active' : 'idle');
    activeSinceValidation = false;
  }, VALIDATE_EVERY_MS);
  window.setInterval(() => {
    if (Date.now() - Math.max(lastActivity, readActivity()) >= INACTIVE_CHECK_AFTER_MS) void check('idle');
  }, MONITOR_EVERY_MS);
}
