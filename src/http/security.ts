// Security headers: a strict CSP, HSTS, nosniff, Referrer-Policy. Scripts come only from the portal's own files
// (`script-src 'self'`): no page has an inline script, so no nonce is needed, and a page is the same bytes for the
// same request each time (docs/decisions.md "The same page, compressed once").
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function setUpWebSecurity(): RequestHandler[] {
  return [
    (req, res, next) => {
      // HTML and API answers are personal: never stored by shared caches.
      if (!req.path.startsWith('/build/')) res.setHeader('Cache-Control', 'no-store');
      next();
    },
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
        },
      },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
      referrerPolicy: { policy: 'same-origin' },
      crossOriginEmbedderPolicy: false,
    }),
  ];
}
