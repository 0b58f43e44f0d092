/**
 * The demo's example alert: a rule on the sandbox's demo organisation (made once, through the app's own API,
 * as its administrator), and a below-target batch added to the sandbox, so that a newcomer sees an alert
 * arrive (on /alerts, and as an e-mail in the mail folder when no SMTP_URL is set) within a check interval.
 */
import type { Batch } from '../lib/contract';
import { formatUtcDate } from '../lib/utc-date';

export const EXAMPLE_RULE = 'Below target (example)';

/** Makes the example rule if the organisation has none of that name, then adds a batch that misses its targets. */
export async function setUpDemoAlert(
  app: string,
  sandbox: string,
  clientId: string,
  admin: { email: string; password: string },
  recipients: string[],
): Promise<void> {
  const signIn = await fetch(`${app}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  if (signIn.status !== 204) throw new Error(`signing in as ${admin.email} answered ${signIn.status}`);
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('tsb_session='))!
    .split(';')[0]!;
  const { rules } = (await (await fetch(`${app}/api/alerts`, { headers: { cookie } })).json()) as {
    rules: { name: string }[];
  };
  if (!rules.some((r) => r.name === EXAMPLE_RULE)) {
    const made = await fetch(`${app}/api/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app, cookie },
      body: JSON.stringify({
        name: EXAMPLE_RULE,
        when: 'misses-target',
        target: 'any',
        recipients,
        delivery: 'immediate',
      }),
    });
    if (made.status !== 201) throw new Error(`making the example rule answered ${made.status}: ${await made.text()}`);
  }
  const now = Date.now();
  const batch: Batch = {
    batch_id: `demo-alert-${now.toString(36)}`,
    batch_name: 'Example: trays below target',
    batch_creation_date: formatUtcDate(now),
    crop_type: 'Lettuce',
    number_of_images: 6,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: '70.40',
    avg_non_germinated_seedlings: '57.60',
    avg_germination_rate: '55.00',
    avg_usable_seedlings: '61.44',
    avg_non_usable_cells: '66.56',
    avg_usable_seedling_rate: '48.00',
    avg_coefficient_of_variation: '31.00',
    avg_median_seedling_size_mm2: '118.00',
    scanned_by_email: admin.email,
    analysis_link: null,
    comment: 'Added by the demo to show an alert',
    warnings: false,
  };
  const added = await fetch(`${sandbox}/_sandbox/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, add: [batch] }),
  });
  if (!added.ok) throw new Error(`adding the example batch answered ${added.status}`);
}
