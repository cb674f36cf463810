// The calls that need no X-Mandant per the API contract: sign-in and the session's own calls (not
// tenant-scoped), the public THG display and the API description (no sign-in). The security suites and the API description
// (src/features/api-docs) read it from here, so both say the same.
export function isTenantExempt(path: string): boolean {
  return /^\/api\/v1\/(account\/(login|logout|session|mfa\/.*)|sso\/login)$/.test(path) || path === '/api/thg-anzeige/:token'
    || path === '/api/docs' || path === '/api/docs/openapi.json';
}
