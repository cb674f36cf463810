// Security headers: a strict CSP with a fresh nonce per response, HSTS, nosniff, Referrer-Policy.
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Random bytes drawn from the system's generator this many at a time, 16 per nonce: one call per 256 responses. */
const NONCE_POOL_BYTES = 4096;
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;

/** A fresh 128-bit nonce, never handed out twice. */
export function freshNonce(): string {
  if (nonceOffset + 16 > noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_BYTES);
    nonceOffset = 0;
  }
  nonceOffset += 16;
  return noncePool.toString('base64', nonceOffset - 16, nonceOffset);
}

export function setUpWebSecurity(): RequestHandler[] {
  return [
    (req, res, next) => {
      res.locals.nonce = freshNonce();
      // HTML and API answers are personal: never stored by shared caches.
      if (!req.path.startsWith('/build/')) res.setHeader('Cache-Control', 'no-store');
      next();
    },
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { nonce: string } }).locals.nonce}'`],
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
