import 'server-only';
import type { SsoPeople } from './sign-in';

/** People, sessions and the activity log for single sign-on, from the core modules. */
export function ssoPeople(): SsoPeople {
  throw new Error('single sign-on: people and sessions are not wired yet');
}
