import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, loginUrl, REDIRECT_FLAG, type ShellConfig } from './api';

const config: ShellConfig = {
  lang: 'de', mandant: 'demo', csrf: 'tok', idleMs: 1_800_000, countdownAfterMs: 30_000,
  messages: {
    mandantRequired: 'Mandant ist erforderlich', mandantHeaderRequired: 'X-Mandant Header ist erforderlich',
    missingTenantHeader: 'Ungültige API-Antwort: Fehlender Mandanten-Header', abortedDuringRedirect: 'Anfrage abgebrochen während Redirect',
    sessionExpired: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
    serverError: 'Server-Fehler. Bitte versuchen Sie es später erneut.',
    codeNotValidated: 'Der Code konnte nicht validiert werden. Bitte versuchen Sie es erneut.',
  },
};

function storage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
}

describe('islands API client', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('sessionStorage', storage());
    vi.stubGlobal('window', { dispatchEvent: () => true, location: { pathname: '/de/x', search: '', assign: vi.fn() } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the tenant upper-cased, the CSRF token and the page language', async () => {
    fetchMock.mockResolvedValue(new Response('{"ok":1}', { headers: { 'content-type': 'application/json', 'X-Mandant': 'DEMO' } }));
    await expect(api('/produkte', {}, config)).resolves.toEqual({ ok: 1 });
    const headers = fetchMock.mock.calls[0][1].headers as Headers;
    expect(headers.get('X-Mandant')).toBe('DEMO');
    expect(headers.get('X-CSRF-Token')).toBe('tok');
    // The page's language, so the server's messages match the page.
    expect(headers.get('Accept-Language')).toBe('de');
    expect(fetchMock.mock.calls[0][0]).toBe('/api/produkte');
  });

  it('rejects a response without the tenant header', async () => {
    fetchMock.mockResolvedValue(new Response('{}', { headers: { 'content-type': 'application/json' } }));
    await expect(api('/produkte', {}, config)).rejects.toThrow('Ungültige API-Antwort: Fehlender Mandanten-Header');
  });

  it('refuses to call without a tenant', async () => {
    await expect(api('/produkte', {}, { ...config, mandant: null })).rejects.toThrow('Mandant ist erforderlich');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('cancels calls while a redirect to login runs, but not the login calls', async () => {
    sessionStorage.setItem(REDIRECT_FLAG, 'true');
    await expect(api('/produkte', {}, config)).rejects.toThrow('Anfrage abgebrochen während Redirect');
    fetchMock.mockResolvedValue(new Response('{"success":true}', { headers: { 'content-type': 'application/json' } }));
    await expect(api('/api/v1/account/login', { method: 'POST', body: '{}' }, config)).resolves.toEqual({ success: true });
  });

  it('shows section 8\'s MFA verify texts for a server error, an unreachable server and success false', async () => {
    const verify = () => api('/api/v1/account/mfa/verify', { method: 'POST', body: '{"token":"t","code":"123456"}' }, config);
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    await expect(verify()).rejects.toThrow('Server-Fehler. Bitte versuchen Sie es später erneut.');
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(verify()).rejects.toThrow('Server-Fehler. Bitte versuchen Sie es später erneut.');
    fetchMock.mockResolvedValueOnce(new Response('{"success":false}', { headers: { 'content-type': 'application/json' } }));
    await expect(verify()).rejects.toThrow('Der Code konnte nicht validiert werden. Bitte versuchen Sie es erneut.');
    // A refused code keeps the server's own text (401), and a success passes.
    fetchMock.mockResolvedValueOnce(new Response('{"success":false,"message":"Ungültiger Code oder abgelaufener Token."}', { status: 401, headers: { 'content-type': 'application/json' } }));
    await expect(verify()).rejects.toThrow('Ungültiger Code oder abgelaufener Token.');
    fetchMock.mockResolvedValueOnce(new Response('{"success":true,"token":"Bearer x"}', { headers: { 'content-type': 'application/json' } }));
    await expect(verify()).resolves.toMatchObject({ success: true });
  });

  it('goes to tenant selection on a 400 that names the tenant', async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"Mandant ist erforderlich"}', { status: 400, headers: { 'content-type': 'application/json' } }));
    await expect(api('/produkte', {}, config)).rejects.toBeInstanceOf(ApiError);
    expect(window.location.assign).toHaveBeenCalledWith('/de/mandant-selection');
  });

  it('builds the login URL with the current path, or the root when already on login', () => {
    expect(loginUrl('de', { pathname: '/de/bewegungsdaten/einlieferungen', search: '?page=2' } as Location)).toBe(
      '/de/login?redirect=%2Fde%2Fbewegungsdaten%2Feinlieferungen%3Fpage%3D2',
    );
    expect(loginUrl('en', { pathname: '/en/login', search: '' } as Location)).toBe('/');
  });
});
