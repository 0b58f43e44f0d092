import { AppError } from '../http/app-error';
import type { Role } from '../settings/database';

export type { Role };
/** Each role may do everything the roles before it may. */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin'];

export const roleAtLeast = (role: Role, needed: Role) => ROLES.indexOf(role) >= ROLES.indexOf(needed);

const article = (role: Role) => (role === 'viewer' ? 'a viewer' : `an ${role}`);

/** Refuses (403, naming the role needed and the one held) unless `role` is at least `needed`. */
export function requireRole(role: Role, needed: Role, what: string): void {
  if (!roleAtLeast(role, needed)) {
    throw new AppError('forbidden_role', `${what} needs the ${needed} role; you are ${article(role)}`, {
      field: 'role',
    });
  }
}
