import 'server-only';
import { hash, verify } from '@node-rs/argon2';

/** Shortest and longest password accepted (a passphrase is welcome; a megabyte is not a password). */
export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 1024;

/** argon2id with OWASP's first recommended setting: 19 MiB, 2 passes, 1 lane (about 50 ms here). */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS as Parameters<typeof hash>[1]);
}

let dummy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`. Without a stored hash (unknown e-mail, no password yet) a dummy hash is
 * verified all the same, so that the answer takes about as long either way and tells nobody who exists.
 */
export async function passwordMatches(stored: string | null | undefined, password: string): Promise<boolean> {
  dummy ??= hashPassword('not anybody’s password, only here to take the time a real one takes');
  const against = stored ?? (await dummy);
  try {
    const ok = await verify(against, password);
    return ok && Boolean(stored);
  } catch {
    return false;
  }
}
