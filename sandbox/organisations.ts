import type { Batch } from '../lib/contract';
import type { SandboxConfig } from './config';
import { driftBatches } from './data/drift';
import { edgeCaseBatches } from './data/edge-cases';
import { generateBatches } from './data/generate';
import { reportBaseUrl } from './reports/links';

export type Organisation = {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  /** Oldest first, ties broken by batch_id: the order of the v2 cursor. */
  batches: readonly Batch[];
  /** Creation instants of `batches`, same order, for binary search. */
  times: Float64Array;
  /** Batches `from` to `to` (exclusive) as JSON, each batch serialized once, when it is first asked for. */
  jsonOf(from: number, to: number): string[];
};

export type OrganisationSeed = { id: string; name: string; clientId: string; clientSecret: string };

/** The demo organisation: `SANDBOX_BATCHES` batches over two years, eight crops. */
export const DEMO_CREDENTIALS = { clientId: 'demo-client', clientSecret: 'demo-secret' } as const;
export const OTHER_CREDENTIALS = { clientId: 'other-client', clientSecret: 'other-secret' } as const;
export const EDGE_CREDENTIALS = { clientId: 'edge-client', clientSecret: 'edge-secret' } as const;
/** A process that drifts: Tomato's germination shifts down after its first 100 batches (see data/drift.ts). */
export const DRIFT_CREDENTIALS = { clientId: 'drift-client', clientSecret: 'drift-secret' } as const;
/** Exercises form encoding: every character that URL encoding can get wrong. */
export const SPECIAL_CREDENTIALS = { clientId: 'spécial+client/=&%', clientSecret: 's3cr=t+/&% é☃?#' } as const;

/** Orders the batches as the cursor walks them and indexes them for range look-ups. */
export function organisationOf(seed: OrganisationSeed, batches: Batch[]): Organisation {
  // Each date parsed once, not twice per comparison: 200,000 batches sort in a fraction of the time.
  const keyed = batches.map((batch) => ({ batch, ms: Date.parse(batch.batch_creation_date) }));
  keyed.sort(
    (a, b) => a.ms - b.ms || (a.batch.batch_id < b.batch.batch_id ? -1 : a.batch.batch_id > b.batch.batch_id ? 1 : 0),
  );
  const sorted = keyed.map((k) => k.batch);
  // Serialized on first request, then kept: a large organisation starts at once (200,000 batches spent a
  // third of their start-up on JSON that most runs never send).
  const json: (string | undefined)[] = new Array(sorted.length);
  return {
    ...seed,
    batches: sorted,
    times: Float64Array.from(keyed, (k) => k.ms),
    jsonOf: (from, to) => {
      const out: string[] = [];
      for (let i = from; i < to; i++) out.push((json[i] ??= JSON.stringify(sorted[i])));
      return out;
    },
  };
}

export function defaultAnchorMs(now = Date.now()): number {
  return Math.floor(now / 3_600_000) * 3_600_000;
}

/** The organisations and their batches, whose analysis links open the sandbox's reports at `publicUrl`. */
export function buildOrganisations(config: SandboxConfig, publicUrl: string): Organisation[] {
  const anchorMs = config.anchor ? config.anchor.getTime() : defaultAnchorMs();
  const generated = (seed: OrganisationSeed, count: number, domain: string, people: string[]) =>
    organisationOf(
      seed,
      generateBatches({
        seed: `${config.seed}/${seed.id}`,
        count,
        anchorMs,
        scanners: people.map((p) => `${p}@${domain}`),
        reportBaseUrl: reportBaseUrl(publicUrl, seed.id),
      }),
    );
  return [
    generated(
      { id: 'org-demo', name: 'Greenfield Seeds (demo)', ...DEMO_CREDENTIALS },
      config.batches,
      'greenfield-seeds.example',
      ['a.jansen', 'm.okafor', 'l.garcia', 'k.nakamura', 'greenhouse-scanner-2'],
    ),
    generated(
      { id: 'org-other', name: 'Hillside Growers', ...OTHER_CREDENTIALS },
      Math.min(400, Math.max(40, Math.round(config.batches / 8))),
      'hillside-growers.example',
      ['p.dubois', 's.berg'],
    ),
    generated({ id: 'org-special', name: 'Spécial & Co', ...SPECIAL_CREDENTIALS }, 60, 'special.example', ['zoë']),
    organisationOf(
      { id: 'org-edge', name: 'Edge cases', ...EDGE_CREDENTIALS },
      edgeCaseBatches(reportBaseUrl(publicUrl, 'org-edge')),
    ),
    organisationOf(
      { id: 'org-drift', name: 'Drift Nursery', ...DRIFT_CREDENTIALS },
      driftBatches(anchorMs, reportBaseUrl(publicUrl, 'org-drift')),
    ),
  ];
}
