import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A free loopback port (the OS picks one, then it is handed on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export type Nginx = { url: (name: string) => string; stop(): Promise<void> };

/** Debian installs it in /usr/sbin, which is not on every user's PATH. */
const NGINX = process.env.NGINX_PATH ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

/**
 * Debian's nginx as a reverse proxy on loopback, in the foreground, with a configuration of our own in a
 * temporary directory: one server per entry of `upstreams`, proxying to that address with the given read
 * timeout. What the dashboard meets behind it are nginx's own 502 and 504 pages.
 */
export async function startNginx(upstreams: Record<string, { target: string; readTimeoutS: number }>): Promise<Nginx> {
  const dir = await nginxDir('nginx-test-');
  const ports: Record<string, number> = {};
  for (const name of Object.keys(upstreams)) ports[name] = await freePort();
  const servers = Object.entries(upstreams)
    .map(
      ([name, { target, readTimeoutS }]) => `
    server {
      listen 127.0.0.1:${ports[name]};
      location / {
        proxy_pass ${target};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_connect_timeout 1s;
        proxy_read_timeout ${readTimeoutS}s;
      }
    }`,
    )
    .join('\n');
  const stop = await runNginx(dir, mainConfig(dir, servers), `http://127.0.0.1:${Object.values(ports)[0]!}/`);
  return { url: (name) => `http://127.0.0.1:${ports[name]}`, stop };
}

/** A temporary directory for nginx's files; its workers run as nobody when started as root, so anyone may write. */
async function nginxDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(dir, 0o777);
  return dir;
}

/** Runs nginx in the foreground with `config` until `probe` answers; the function that stops it and removes `dir`. */
async function runNginx(dir: string, config: string, probe: string): Promise<() => Promise<void>> {
  await writeFile(path.join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  // Until it listens (bounded: 100 × 50 ms).
  for (let i = 0; ; i++) {
    try {
      await fetch(probe, { redirect: 'manual' }).then((r) => r.arrayBuffer());
      break;
    } catch {
      if (i >= 100 || child.exitCode !== null) throw new Error('nginx did not start (is Debian’s nginx installed?)');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
}

/** The shipped site configuration (deploy/nginx), as an operator installs it. */
export const SHIPPED_NGINX_SITE = path.join(process.cwd(), 'deploy/nginx/tray-scan-dashboard.conf');

/** A self-signed certificate for `host` (and 127.0.0.1), made with openssl in `dir`. */
export function selfSignedCertificate(dir: string, host = 'dashboard.test'): { cert: string; key: string } {
  const cert = path.join(dir, `${host}.pem`);
  const key = path.join(dir, `${host}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host},IP:127.0.0.1`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/**
 * The shipped site with only its "site:" lines changed, as the operator would: the instances, the
 * certificate, and loopback ports instead of 80 and 443. Throws if a line the change needs is gone.
 */
export function siteConfig(
  shipped: string,
  site: { instances: string[]; cert: string; key: string; httpPort: number; httpsPort: number },
): string {
  const replace = (text: string, pattern: RegExp, by: string) => {
    if (!pattern.test(text)) throw new Error(`the shipped nginx site has no line matching ${pattern}`);
    return text.replace(pattern, by);
  };
  let text = shipped;
  text = replace(
    text,
    /^(\s*)server 127\.0\.0\.1:3001[^\n]*\n\s*server 127\.0\.0\.1:3002[^\n]*$/m,
    site.instances.map((i) => `$1server ${i} max_fails=1 fail_timeout=10s;`).join('\n'),
  );
  text = replace(text, /^\s*listen \[::\]:80;\n/m, '');
  text = replace(text, /^\s*listen \[::\]:443 ssl http2;\n/m, '');
  text = replace(text, /listen 80;/, `listen 127.0.0.1:${site.httpPort};`);
  text = replace(text, /listen 443 ssl http2;/, `listen 127.0.0.1:${site.httpsPort} ssl http2;`);
  text = replace(text, /ssl_certificate \S+;/, `ssl_certificate ${site.cert};`);
  text = replace(text, /ssl_certificate_key \S+;/, `ssl_certificate_key ${site.key};`);
  return text;
}

/** nginx's main configuration around `servers` (an http block's body), everything it writes kept in `dir`. */
export function mainConfig(dir: string, servers: string): string {
  return `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${servers}
}
`;
}

/** `nginx -t` of a main configuration: its output, or it throws with it. */
export async function nginxCheck(dir: string, config: string): Promise<string> {
  const file = path.join(dir, 'nginx-check.conf');
  await writeFile(file, config);
  return execFileSync(NGINX, ['-t', '-c', file, '-p', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export type ShippedNginx = { https: string; http: string; stop(): Promise<void> };

/**
 * The shipped site in front of `instances` (host:port), with a certificate made here: nginx in the foreground
 * on two free loopback ports, everything it writes in a temporary directory.
 */
export async function startShippedNginx(instances: string[]): Promise<ShippedNginx> {
  const dir = await nginxDir('nginx-shipped-');
  const { cert, key } = selfSignedCertificate(dir);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const site = path.join(dir, 'site.conf');
  await writeFile(
    site,
    siteConfig(await readFile(SHIPPED_NGINX_SITE, 'utf8'), { instances, cert, key, httpPort, httpsPort }),
  );
  const stop = await runNginx(dir, mainConfig(dir, `  include ${site};`), `http://127.0.0.1:${httpPort}/`);
  return { https: `https://127.0.0.1:${httpsPort}`, http: `http://127.0.0.1:${httpPort}`, stop };
}
