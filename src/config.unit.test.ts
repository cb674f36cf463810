// What a deployment sets for single sign-on and the number of workers, and what the portal refuses to start with.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const base = { SESSION_SECRET: 'x'.repeat(32), PGLITE_DIR: '/tmp/never-used' };

describe('SSO configuration', () => {
  it('is off when no SSO variable is set', () => {
    expect(loadConfig(base).sso).toBeNull();
  });

  it('needs only the issuer and the client id; the client id is the audience', () => {
    const { sso } = loadConfig({ ...base, SSO_ISSUER: 'https://login.microsoftonline.com/abc/v2.0', SSO_CLIENT_ID: 'portal-app' });
    expect(sso).toMatchObject({ issuer: 'https://login.microsoftonline.com/abc/v2.0', clientId: 'portal-app', audience: 'portal-app' });
    expect(sso?.clientSecret).toBeUndefined();
  });

  it('takes a client secret and an audience override', () => {
    const { sso } = loadConfig({ ...base, SSO_ISSUER: 'https://kc.example/realms/x', SSO_CLIENT_ID: 'portal', SSO_CLIENT_SECRET: 's3cret', SSO_AUDIENCE: 'other' });
    expect(sso).toMatchObject({ clientId: 'portal', clientSecret: 's3cret', audience: 'other' });
  });

  it.each([
    [{ SSO_CLIENT_ID: 'portal' }, /SSO_ISSUER and SSO_CLIENT_ID/],
    [{ SSO_ISSUER: 'https://idp.example' }, /SSO_ISSUER and SSO_CLIENT_ID/],
    [{ SSO_ISSUER: 'https://idp.example', SSO_AUDIENCE: 'a', SSO_CLIENT_SECRET: 's' }, /SSO_CLIENT_SECRET needs SSO_CLIENT_ID/],
    [{ SSO_ISSUER: 'http://idp.example', SSO_CLIENT_ID: 'portal' }, /must be an https/],
  ])('refuses to start with %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });

  it('allows plain http for a provider on this machine only', () => {
    expect(loadConfig({ ...base, SSO_ISSUER: 'http://localhost:3001', SSO_CLIENT_ID: 'portal' }).sso?.issuer).toBe('http://localhost:3001');
    expect(loadConfig({ ...base, SSO_ISSUER: 'http://127.0.0.1:8080/realms/x', SSO_CLIENT_ID: 'portal' }).sso).not.toBeNull();
  });
});

describe('WEB_CONCURRENCY', () => {
  it('is unset by default (one worker per core on PostgreSQL) and takes a positive whole number', () => {
    expect(loadConfig(base).webConcurrency).toBeUndefined();
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '4' }).webConcurrency).toBe(4);
  });

  it.each(['0', '-2', '1.5', 'two', ''])('refuses %j with a message that names the variable', (value) => {
    expect(() => loadConfig({ ...base, WEB_CONCURRENCY: value })).toThrow('WEB_CONCURRENCY: must be a whole number of worker processes, at least 1');
  });
});

describe('the benchmark\'s instruments', () => {
  it('are off unless the benchmark sets them', () => {
    const config = loadConfig(base);
    expect(config.countQueries).toBe(false);
    expect(config.latencyProbeFile).toBeUndefined();
  });

  it('take the latency probe\'s file from BENCH_LATENCY_PROBE and refuse an empty one', () => {
    expect(loadConfig({ ...base, BENCH_LATENCY_PROBE: '/tmp/portal-latency.jsonl' }).latencyProbeFile).toBe('/tmp/portal-latency.jsonl');
    expect(() => loadConfig({ ...base, BENCH_LATENCY_PROBE: '' })).toThrow(/BENCH_LATENCY_PROBE/);
  });
});
