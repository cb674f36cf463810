// A local OpenID Connect provider to try single sign-on with the demo data (README, "Single sign-on"): the
// tests' oidc-provider on http://localhost:3001 with the client `portal`, whose sign-in page takes any of the
// logins of src/testing/oidc-provider.ts (e.g. `tadmin` → TADMIN by e-mail) with any password.
// Start it, then the portal with the variables it prints.
import { PROVIDER_ACCOUNTS, startTestProvider } from '../src/testing/oidc-provider.js';

const port = Number(process.env.SSO_DEMO_PORT ?? 3001);
const portal = process.env.PORTAL_URL ?? 'http://localhost:3000';
const secret = 'demo-sso-geheimnis';
const provider = await startTestProvider(port);
await provider.configure([{ client_id: 'portal', client_secret: secret, redirect_uris: ['de', 'en'].map((l) => `${portal}/${l}/sso/callback`) }]);
console.log(`Demo identity provider at ${provider.issuer} (for the portal at ${portal}). Start the portal with:

  SSO_ISSUER=${provider.issuer} SSO_CLIENT_ID=portal SSO_CLIENT_SECRET=${secret} npm start

Sign in at the provider with one of: ${Object.keys(PROVIDER_ACCOUNTS).join(', ')} (any password).`);
const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
