import 'server-only';
import { createHash } from 'node:crypto';

/**
 * A session secret's id in its seals: taken from the secret itself (the first 48 bits of its SHA-256, as a
 * decimal number, the form iron-session's password ids take), never from its place in a list. An instance
 * that has a secret as SESSION_SECRET and one that has it in SESSION_SECRET_PREVIOUS give it the same id, so
 * cookies open on both at every step of a rotation.
 */
export function sessionKeyId(secret: string): string {
  return String(createHash('sha256').update(secret).digest().readUIntBE(0, 6));
}

/** Every secret that opens a seal, by id: the current one and the previous ones. */
export function sessionPasswordsOf(current: string, previous: readonly string[]): Record<string, string> {
  const passwords: Record<string, string> = {};
  for (const secret of [...previous, current]) passwords[sessionKeyId(secret)] = secret;
  return passwords;
}

/** What new seals are made with: the current secret alone under its id (iron-session seals with the one given). */
export const sealingPassword = (current: string): Record<string, string> => ({ [sessionKeyId(current)]: current });
