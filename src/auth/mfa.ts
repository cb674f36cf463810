// TOTP second factor (RFC 6238 with otplib): 6 digits, 30-second steps, one step of drift either way, and
// each time step accepted once (the last used step is stored: no replay).
import { createGuardrails, generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

// The demo secret of the API contract decodes to 10 bytes; newly enrolled secrets are 20 bytes.
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });
export const CODE_PATTERN = /^\d{6}$/;
const PERIOD_S = 30;

export function newSecret(): string {
  return generateSecret({ length: 20 });
}

export async function codeFor(secret: string, atMs: number): Promise<string> {
  return generate({ secret, guardrails, epoch: Math.floor(atMs / 1000) });
}

/** The accepted time step, or null. `lastStep` is the last step this user already used. */
export async function verifyCode(secret: string, code: string, nowMs: number, lastStep: number | null): Promise<number | null> {
  if (!CODE_PATTERN.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    guardrails,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: PERIOD_S,
    ...(lastStep != null ? { afterTimeStep: lastStep } : {}),
  });
  return result.valid && 'timeStep' in result ? (result.timeStep as number) : null;
}

export async function enrolment(secret: string, label: string): Promise<{ secret: string; uri: string; svg: string }> {
  const uri = generateURI({ issuer: 'Nachhaltigkeitsportal', label, secret });
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, svg };
}
