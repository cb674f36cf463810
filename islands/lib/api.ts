// The islands' API client (spec sections 4, 5 and 8): the current tenant as upper-cased X-Mandant, the CSRF
// token for the cookie session, responses without the tenant header rejected, 401 → log out and go to login
// (once: a flag in sessionStorage prevents loops and cancels calls while the redirect runs), a 400 naming the
// tenant → tenant selection.
export const REDIRECT_FLAG = 'redirected_to_login';

export interface ShellConfig {
  lang: string;
  mandant: string | null;
  csrf: string;
  idleMs: number;
  countdownAfterMs: number;
  messages: Record<
    'mandantRequired' | 'mandantHeaderRequired' | 'missingTenantHeader' | 'abortedDuringRedirect' | 'sessionExpired' | 'serverError' | 'codeNotValidated',
    string
  >;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly body?: unknown) {
    super(message);
  }
}

/** Reads what the server put on #session-config. */
export function shellConfig(doc: Document = document): ShellConfig | null {
  const el = doc.getElementById('session-config');
  if (!el) return null;
  const d = el.dataset;
  return {
    lang: d.lang ?? 'de',
    mandant: d.mandant || null,
    csrf: d.csrf ?? '',
    idleMs: Number(d.idleMs ?? 1_800_000),
    countdownAfterMs: Number(d.countdownAfterMs ?? 30_000),
    messages: JSON.parse(d.messages ?? '{}'),
  };
}

const MFA_VERIFY = '/api/v1/account/mfa/verify';
const LOGIN_CALLS = ['/api/v1/account/login', '/api/v1/account/mfa/login', MFA_VERIFY];

function isRedirecting(): boolean {
  try {
    return sessionStorage.getItem(REDIRECT_FLAG) === 'true';
  } catch {
    return false;
  }
}

/** The login page with the current path as redirect target; the site root when already on login. */
export function loginUrl(lang: string, location: Location = window.location): string {
  const here = location.pathname + location.search;
  if (/^\/(de|en)\/login(\/|$)/.test(location.pathname)) return '/';
  return `/${lang}/login?redirect=${encodeURIComponent(here)}`;
}

export function redirectToLogin(config: ShellConfig, reason: 'expired' | 'unauthorized' = 'unauthorized'): void {
  if (isRedirecting()) return;
  try {
    sessionStorage.setItem(REDIRECT_FLAG, 'true');
  } catch {
    /* storage may be disabled */
  }
  // Log out on the server (the session may already have ended there, so the answer does not matter), then
  // land on login with the current path as redirect target, or on the root when already on login.
  const body = new URLSearchParams({ _csrf: config.csrf });
  const done = () => {
    const target = loginUrl(config.lang);
    window.location.assign(reason === 'expired' && target !== '/' ? `${target}&expired=1` : target);
  };
  fetch(`/${config.lang}/logout`, { method: 'POST', body, credentials: 'same-origin', redirect: 'manual' }).then(done, done);
}

/** The login page clears the flag: the redirect has arrived. */
export function clearRedirectFlag(): void {
  try {
    sessionStorage.removeItem(REDIRECT_FLAG);
  } catch {
    /* storage may be disabled */
  }
}

export async function api<T = unknown>(path: string, init: RequestInit = {}, config = shellConfig()): Promise<T> {
  if (!config) throw new ApiError(0, 'no shell config');
  const url = path.startsWith('/api') ? path : `/api${path.startsWith('/') ? '' : '/'}${path}`;
  const isLogin = LOGIN_CALLS.includes(url);
  if (isRedirecting() && !isLogin) throw new ApiError(0, config.messages.abortedDuringRedirect);
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  // Messages in the page's language, whatever the browser's own preference or the user's setting (the URL decides).
  headers.set('Accept-Language', config.lang);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  if (!isLogin) {
    if (!config.mandant) throw new ApiError(0, config.messages.mandantRequired);
    const tenant = config.mandant.toUpperCase();
    headers.set('X-Mandant', tenant);
    if (headers.get('X-Mandant') !== tenant) throw new ApiError(0, config.messages.mandantHeaderRequired);
  }
  if (config.csrf) headers.set('X-CSRF-Token', config.csrf);
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  } catch (err) {
    // The code check is the one call whose server errors have a text the user sees (spec section 8).
    if (url === MFA_VERIFY) throw new ApiError(0, config.messages.serverError);
    throw err;
  }
  window.dispatchEvent(new Event('portal:activity'));
  const body = res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => null) : null;
  const message = (body as { message?: string } | null)?.message ?? res.statusText;
  if (url === MFA_VERIFY) {
    if (res.status >= 500) throw new ApiError(res.status, config.messages.serverError, body);
    if (res.ok && (body as { success?: unknown } | null)?.success === false) throw new ApiError(res.status, config.messages.codeNotValidated, body);
  }
  if (res.status === 401 && !isLogin) {
    redirectToLogin(config);
    throw new ApiError(401, message, body);
  }
  if (res.status === 400 && /mandant/i.test(message)) {
    console.warn('tenant problem, going to tenant selection:', message);
    window.location.assign(`/${config.lang}/mandant-selection`);
    throw new ApiError(400, message, body);
  }
  if (!isLogin && !res.headers.get('X-Mandant')) throw new ApiError(res.status, config.messages.missingTenantHeader, body);
  if (!res.ok) throw new ApiError(res.status, message, body);
  return body as T;
}
