import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainConfig, nginxCheck, selfSignedCertificate, SHIPPED_NGINX_SITE, siteConfig } from '../helpers/nginx';

/** The deploy recipe's files as the tools that run them read them: nginx -t, systemd-analyze verify. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'deploy-files-'));
  await chmod(dir, 0o777);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('deploy/nginx/tray-scan-dashboard.conf', () => {
  it('is valid for nginx once its site lines are filled in', async () => {
    const { cert, key } = selfSignedCertificate(dir);
    const site = path.join(dir, 'site.conf');
    await writeFile(
      site,
      siteConfig(await readFile(SHIPPED_NGINX_SITE, 'utf8'), {
        instances: ['127.0.0.1:1', '127.0.0.1:2'],
        cert,
        key,
        httpPort: 8080,
        httpsPort: 8443,
      }),
    );
    const output = await nginxCheck(dir, mainConfig(dir, `  include ${site};`)).catch(
      (error: { stderr?: string }) => error.stderr ?? String(error),
    );
    expect(String(output)).not.toMatch(/emerg|\[warn\]/);
  });

  it('streams the batch routes unbuffered and never serves /metrics publicly', async () => {
    const shipped = await readFile(SHIPPED_NGINX_SITE, 'utf8');
    const batches = shipped.slice(shipped.indexOf('location /api/batches/'));
    expect(batches.slice(0, batches.indexOf('}'))).toMatch(/proxy_buffering off;/);
    expect(shipped).toMatch(/location = \/metrics \{\s*return 404;/);
    expect(shipped).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
  });
});

describe('deploy/systemd/tray-scan-dashboard@.service', () => {
  const unit = path.join(process.cwd(), 'deploy/systemd/tray-scan-dashboard@.service');

  it('runs the built server with node on loopback, and waits longer than the drain before it kills', async () => {
    const text = await readFile(unit, 'utf8');
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node .next/app-server.js');
    expect(text).toMatch(/^ExecStart=\/usr\/bin\/node \.next\/app-server\.js$/m);
    expect(text).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    expect(text).toMatch(/^EnvironmentFile=/m);
    expect(text).toMatch(/^Restart=on-failure$/m);
    const stopS = Number(/^TimeoutStopSec=(\d+)s$/m.exec(text)?.[1]);
    expect(stopS).toBeGreaterThan(25 + 2);
  });

  it('passes systemd-analyze verify, where systemd is installed', async () => {
    let analyze: string;
    try {
      analyze = execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim();
    } catch {
      return; // not every machine has systemd; the checks above still hold the unit's contents
    }
    const instance = path.join(dir, 'tray-scan-dashboard@3001.service');
    await copyFile(unit, instance);
    const output = execFileSync(analyze, ['verify', instance], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output).toBe('');
  });
});
