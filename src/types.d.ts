import type { CurrentUser } from './auth/current-user.js';
import type { Principal } from './permissions/index.js';
import type { Lang } from './http/i18n.js';

declare module 'express-session' {
  interface SessionData {
    /** The tenant chosen for this session (upper-case). */
    mandant?: string;
    /** Where to go after login / tenant selection. */
    returnTo?: string;
    passport?: { user?: number };
    /** Between password and code of the two-step login: whose code is due, until when (ms). */
    pendingMfa?: { userId: number; until: number };
    /** A second-factor secret shown for enrolment, until confirmed with a first code. */
    pendingMfaSecret?: string;
    /** State and nonce of an SSO round trip to the identity provider. */
    /** Single sign-ons started in this browser and not yet back from the provider, by their state. */
    sso?: Record<string, import('./auth/sso.js').SsoTransaction>;
  }
}

declare global {
  namespace Express {
    // passport's `req.user` is our CurrentUser.
    interface User extends CurrentUser {}
    interface Request {
      /** This request's language's i18next (src/http/i18n.ts): shared, never switched; see useLanguage. */
      i18n: import('i18next').i18n;
      /** Translates into this request's language. */
      t: import('i18next').TFunction;
      /** This request's language. */
      language: Lang;
    }
    interface Response {
      /** Renders a view inside the layout (see src/http/render.ts). */
      page(view: string, locals?: Record<string, unknown>): Promise<void>;
      flash(type: 'success' | 'info' | 'warning' | 'error', key: string): void;
    }
    interface Locals {
      lang: Lang;
      csrfToken: string;
      currentUser: CurrentUser | null;
      principal: Principal | null;
      mandant: string | null;
      /** Unread messages of the current tenant for the header, read with the session; null when not known. */
      nachrichtenUngelesen?: number | null;
      /** The current tenant's change counters, read with the session (src/db/scope.ts, Staende); null when not known. */
      staende?: import('./db/scope.js').Staende | null;
    }
  }
}

export {};
