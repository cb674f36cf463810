// Signs in through the real HTML form, like a browser: fetches the CSRF token from the page, posts the form,
// chooses a tenant. Returns a supertest agent that keeps the cookies, and a helper for further form posts.
import type { Express } from 'express';
import request from 'supertest';

export type Agent = ReturnType<typeof request.agent>;

export function csrfFrom(html: string): string {
  const match = html.match(/name="_csrf" value="([^"]+)"/);
  if (!match) throw new Error('no CSRF token in page');
  return match[1];
}

export async function formToken(agent: Agent, path: string): Promise<string> {
  const res = await agent.get(path);
  return csrfFrom(res.text);
}

export async function signIn(app: Express, login: string, password: string, mandant?: string, lang = 'de'): Promise<Agent> {
  const agent = request.agent(app);
  const token = await formToken(agent, `/${lang}/login`);
  const res = await agent.post(`/${lang}/login`).type('form').send({ _csrf: token, login, password });
  if (res.status !== 302) throw new Error(`sign-in of ${login} failed with ${res.status}`);
  if (res.headers.location.includes('/mandant-selection') && mandant) {
    const t2 = await formToken(agent, `/${lang}/mandant-selection`);
    const chosen = await agent.post(`/${lang}/mandant-selection`).type('form').send({ _csrf: t2, mandant });
    if (chosen.status !== 302) throw new Error(`tenant selection ${mandant} failed with ${chosen.status}`);
  }
  return agent;
}

/** The Set-Cookie headers of a response, as a list. */
export function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
}

/**
 * The page's multipart form as a browser posts it: its action (which must carry no token) and its CSRF token,
 * which must be the form's first field, since the check reads it from the body's first part (src/http/first-field.ts).
 */
export function multipartForm(html: string): { action: string; csrf: string } {
  const open = /<form\b[^>]*\benctype="multipart\/form-data"[^>]*>/.exec(html);
  if (!open) throw new Error('no multipart form in page');
  const action = /\baction="([^"]*)"/.exec(open[0])![1].replace(/&amp;/g, '&');
  if (/_csrf/.test(action)) throw new Error(`the form's action carries the CSRF token: ${action}`);
  const first = /<(?:input|select|textarea|button)\b[^>]*>/.exec(html.slice(open.index + open[0].length))?.[0] ?? '';
  const csrf = /^<input type="hidden" name="_csrf" value="([^"]+)">$/.exec(first)?.[1];
  if (!csrf) throw new Error(`the form's first field is not the CSRF token: ${first}`);
  return { action, csrf };
}

/** Starts the post of a multipart form as a browser sends it: the CSRF token first; fields and files follow. */
export const postMultipart = (agent: Agent, form: { action: string; csrf: string }) => agent.post(form.action).field('_csrf', form.csrf);
