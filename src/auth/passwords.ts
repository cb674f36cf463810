// argon2id with OWASP's minimum (19 MiB, 2 iterations, 1 lane).
import argon2 from 'argon2';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/** A hash of a random password, verified against when the login does not exist, so both take the same time. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  const target = hash ?? (await (dummyHash ??= hashPassword('no-such-user-' + Math.random())));
  try {
    const ok = await argon2.verify(target, password);
    return ok && hash != null;
  } catch {
    return false;
  }
}
