import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Batch } from '@/lib/contract';
import { parseSandboxOptions, publicUrlOf } from '@/sandbox/config';
import { EDGE_CREDENTIALS, OTHER_CREDENTIALS } from '@/sandbox/organisations';
import { startSandbox } from '@/sandbox/server';
import { getBatches, sandboxForFile, tokenFor, walkV2 } from '../helpers/sandbox';

const sandbox = sandboxForFile({ batches: 300 });

/** Every batch of an organisation, over the service's own API. */
async function batchesOf(credentials?: { clientId: string; clientSecret: string }): Promise<Batch[]> {
  const { batches } = await walkV2(sandbox(), await tokenFor(sandbox(), 'v2', credentials));
  return batches as unknown as Batch[];
}

/** Opens a link as a browser would: no token, no cookie. */
async function open(link: string, method = 'GET') {
  const response = await fetch(link, { method, redirect: 'manual' });
  return { response, html: await response.text() };
}

/** The page's text without its tags, entities decoded: what a reader sees. */
const seen = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

function expectSafeHeaders(response: Response) {
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = response.headers.get('content-security-policy')!;
  expect(csp).toMatch(
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
  );
  expect(csp).not.toMatch(/script-src|unsafe/);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('sandbox: the analysis report behind every analysis_link', () => {
  it('each batch links to its own report on the sandbox, which a browser opens without a token: its figures and that it is the sandbox', async () => {
    const batches = await batchesOf();
    const linked = batches.filter((b) => b.analysis_link !== null);
    expect(linked.length).toBeGreaterThan(batches.length * 0.9);
    for (const b of linked) expect(b.analysis_link).toBe(`${sandbox().url}/reports/org-demo/${b.batch_id}`);

    const batch = linked.find(
      (b) => b.avg_germination_rate !== null && b.comment !== null && b.total_cells_per_tray !== null,
    )!;
    const { response, html } = await open(batch.analysis_link!);
    expect(response.status).toBe(200);
    expectSafeHeaders(response);
    const text = seen(html);
    expect(html).toMatch(new RegExp(`<h1>${batch.batch_name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`));
    expect(text).toContain('Sandbox. This page is served by the bundled emulator of the Batch Data Service');
    expect(text).toContain(`Germination rate ${batch.avg_germination_rate} %`);
    expect(text).toContain(`Usable-seedling rate ${batch.avg_usable_seedling_rate} %`);
    expect(text).toContain(`Cells per tray ${batch.total_cells_per_tray}`);
    expect(text).toContain(`Germinated seedlings per tray ${batch.avg_germinated_seedlings}`);
    expect(text).toContain(`Median seedling size ${batch.avg_median_seedling_size_mm2 ?? 'not recorded'}`);
    expect(text).toContain(`Crop ${batch.crop_type ?? 'not recorded'}`);
    expect(text).toContain(`Comment ${batch.comment}`);
    expect(text).toContain(`Batch ID ${batch.batch_id}`);
    expect(text).toContain('Greenfield Seeds (demo)');
    expect(html).toContain(`<meter min="0" max="100" value="${Number(batch.avg_germination_rate)}"`);
    // The one inline style is the one the policy allows, by its hash.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(response.headers.get('content-security-policy')).toContain(
      `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    );
  });

  it('escapes every text of the batch: hostile names and comments are shown, never run', async () => {
    const edge = await batchesOf(EDGE_CREDENTIALS);
    const byName = new Map(edge.map((b) => [b.batch_name, b]));
    for (const name of [
      '<script>window.__xss = 1</script>',
      'Quotes "and", commas',
      '=HYPERLINK("http://evil.example","click")',
      'Ünïcödé 🌱 بذور 種子',
      'N'.repeat(2000),
    ]) {
      const batch = byName.get(name)!;
      const { response, html } = await open(batch.analysis_link!);
      expect(response.status, name).toBe(200);
      expectSafeHeaders(response);
      expect(seen(html), name).toContain(`${name} Analysis report · Edge cases`);
      expect(seen(html), name).toContain(`Comment ${batch.comment ?? 'None'}`.replace(/\s+/g, ' '));
      // No markup but the page's own: no script, no image, no event handler (the hostile words only as text).
      expect(html).not.toMatch(/<script|<img/i);
      expect(html.match(/<[^>]*>/g)!.filter((tag) => /\son\w+=|javascript:|src=/i.test(tag))).toEqual([]);
      const own = [
        '<html',
        '<head',
        '<meta',
        '<title',
        '<style',
        '<body',
        '<main',
        '<p',
        '<strong',
        '<h1',
        '<h2',
        '<dl',
        '<dt',
        '<dd',
        '<meter',
      ];
      expect(html.match(/<[a-z][a-z0-9]*/gi)!.filter((tag) => !own.includes(tag))).toEqual([]);
    }
    const hostile = await open(byName.get('<script>window.__xss = 1</script>')!.analysis_link!);
    expect(hostile.html).toContain('<h1>&lt;script&gt;window.__xss = 1&lt;/script&gt;</h1>');
    expect(hostile.html).toContain('&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;');
    expect(hostile.html).toContain(
      '<title>Analysis report: &lt;script&gt;window.__xss = 1&lt;/script&gt; (sandbox)</title>',
    );
    // The odd links stay as they are: they test the dashboard's link filter.
    expect(byName.get('javascript: link')!.analysis_link).toBe('javascript:window.__xss=1');
    expect(byName.get('data: link')!.analysis_link).toBe('data:text/html,<script>window.__xss=1</script>');
    expect(byName.get('Relative link')!.analysis_link).toBe('/analysis/relative');
  });

  it('shows what was not recorded as such', async () => {
    const nulls = (await batchesOf(EDGE_CREDENTIALS)).find((b) => b.batch_name === 'Perfect tray')!;
    const { html } = await open(nulls.analysis_link!);
    expect(seen(html)).toContain('Germination rate 100.00 %');
    expect(seen(html)).toContain('Warnings None Comment None');
  });

  it('answers a link to no batch of the sandbox with a 404 page, with the same protections', async () => {
    const [demo] = await batchesOf();
    const [other] = await batchesOf(OTHER_CREDENTIALS);
    const base = `${sandbox().url}/reports`;
    for (const path of [
      `/org-demo/00000000-0000-4000-8000-000000000000`,
      `/org-nowhere/${demo!.batch_id}`,
      `/org-demo/${other!.batch_id}`, // another organisation's batch under this one's name
      `/org-demo/${demo!.batch_id}/extra`,
      `/org-demo`,
      `/%E0%A4%A/${demo!.batch_id}`,
      `/`,
    ]) {
      const { response, html } = await open(base + path);
      expect(response.status, path).toBe(404);
      expectSafeHeaders(response);
      expect(seen(html), path).toContain('No such analysis report');
      expect(seen(html), path).toContain('Sandbox.');
    }
    const head = await open(demo!.analysis_link!, 'HEAD');
    expect(head.response.status).toBe(200);
    expect(head.html).toBe('');
    const post = await open(demo!.analysis_link!, 'POST');
    expect(post.response.status).toBe(405);
    expect(post.response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a batch removed from the organisation no longer has a report; one added has', async () => {
    const [first] = await batchesOf();
    const added = { ...first!, batch_id: 'added-batch-1', batch_name: 'Added <b>late</b>' };
    const edit = await fetch(`${sandbox().url}/_sandbox/edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'demo-client', remove: [first!.batch_id], add: [added] }),
    });
    expect(edit.status).toBe(200);
    expect((await open(first!.analysis_link!)).response.status).toBe(404);
    const page = await open(`${sandbox().url}/reports/org-demo/added-batch-1`);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<h1>Added &lt;b&gt;late&lt;/b&gt;</h1>');
  });

  it('batches of every organisation link to the sandbox, and their reports open', async () => {
    const token = await tokenFor(sandbox(), 'v2', { clientId: 'drift-client', clientSecret: 'drift-secret' });
    const page = (await (await getBatches(sandbox(), 'v2', token)).json()) as { data: Batch[] };
    const drift = page.data[0]!;
    expect(drift.analysis_link).toBe(`${sandbox().url}/reports/org-drift/${drift.batch_id}`);
    expect((await open(drift.analysis_link!)).response.status).toBe(200);
  });
});

describe('sandbox: where the analysis links point', () => {
  it('at SANDBOX_PUBLIC_URL when set (a proxy’s or a container’s published address), else at where it listens', async () => {
    expect(publicUrlOf(parseSandboxOptions({ host: '0.0.0.0' }), 4010)).toBe('http://localhost:4010');
    expect(publicUrlOf(parseSandboxOptions({ host: '::' }), 4010)).toBe('http://localhost:4010');
    expect(publicUrlOf(parseSandboxOptions({ host: '::1' }), 4010)).toBe('http://[::1]:4010');
    expect(
      publicUrlOf(parseSandboxOptions({ host: '127.0.0.1', publicUrl: 'https://sandbox.example.test/bds/' }), 4010),
    ).toBe('https://sandbox.example.test/bds');
    expect(() => parseSandboxOptions({ publicUrl: 'javascript:alert(1)' })).toThrow(
      'Invalid sandbox setting SANDBOX_PUBLIC_URL: must be an http(s) URL',
    );
    expect(() => parseSandboxOptions({ publicUrl: 'http://x.example/?q=1' })).toThrow(
      'SANDBOX_PUBLIC_URL: must have no query or fragment',
    );

    const behind = await startSandbox({ port: 0, batches: 20, publicUrl: 'https://sandbox.example.test/bds' });
    try {
      expect(behind.publicUrl).toBe('https://sandbox.example.test/bds');
      const demo = behind.organisations.find((o) => o.id === 'org-demo')!;
      for (const b of demo.batches)
        if (b.analysis_link)
          expect(b.analysis_link).toBe(`https://sandbox.example.test/bds/reports/org-demo/${b.batch_id}`);
      // The page itself is served at the path, whatever origin the links name.
      const { response } = await open(`${behind.url}/reports/org-demo/${demo.batches[0]!.batch_id}`);
      expect(response.status).toBe(200);
    } finally {
      await behind.close();
    }
  });
});
