import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
  const dir = await mkdtemp(path.join(tmpdir(), 'nginx-test-'));
  // nginx's workers run as nobody when started as root: they must be able to write their temporary files.
  await chmod(dir, 0o777);
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
  const config = `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
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
  await writeFile(path.join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const first = Object.values(ports)[0]!;
  // Wait until it listens (bounded: 100 × 50 ms).
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${first}/`).then((r) => r.arrayBuffer());
      break;
    } catch {
      if (i >= 100 || child.exitCode !== null) throw new Error('nginx did not start (is Debian’s nginx installed?)');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: (name) => `http://127.0.0.1:${ports[name]}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The shipped site configuration (deploy/nginx), as an operator installs it. */
export const SHIPPED_NGINX_SITE = path.join(process.cwd(), 'deploy/nginx/tray-scan-dashboard.conf');

/** A self-signed certificate for `host` (and 127.0.0.1), made with openssl in `dir`. */
export function selfSignedCertificate(dir: string, host = 'dashboard.test'): { cert: string; key: string } {
  const cert = path.join(dir, `${host}.pem`);
  const key = path.join(dir, `${host}.key`);
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${host}`,
    '-addext', `subjectAltName=DNS:${host},IP:127.0.0.1`, '-keyout', key, '-out', cert,
  ], { stdio: 'ignore' });
  return { cert, key };
}

/**
 * The shipped site with only its "site:" lines changed, as the operator would: the instances, the
 * certificate, and loopback ports instead of 80 and 443. Throws if a line the change needs is gone.
 */
export function siteConfig(shipped: string, site: { instances: string[]; cert: string; key: string; httpPort: number; httpsPort: number }): string {
  const replace = (text: string, pattern: RegExp, by: string) => {
    if (!pattern.test(text)) throw new Error(`the shipped nginx site has no line matching ${pattern}`);
    return text.replace(pattern, by);
  };
  let text = shipped;
  text = replace(text, /^(\s*)server 127\.0\.0\.1:3001[^\n]*\n\s*server 127\.0\.0\.1:3002[^\n]*$/m, site.instances.map((i) => `$1server ${i} max_fails=1 fail_timeout=10s;`).join('\n'));
  text = replace(text, /^\s*listen \[::\]:80;\n/m, '');
  text = replace(text, /^\s*listen \[::\]:443 ssl http2;\n/m, '');
  text = replace(text, /listen 80;/, `listen 127.0.0.1:${site.httpPort};`);
  text = replace(text, /listen 443 ssl http2;/, `listen 127.0.0.1:${site.httpsPort} ssl http2;`);
  text = replace(text, /ssl_certificate \S+;/, `ssl_certificate ${site.cert};`);
  text = replace(text, /ssl_certificate_key \S+;/, `ssl_certificate_key ${site.key};`);
  return text;
}

/** nginx's main configuration around `site`, everything it writes kept in `dir`. */
export function mainConfig(dir: string, site: string): string {
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
  include ${site};
}
`;
}

/** `nginx -t` of a main configuration: its output, or it throws with it. */
export async function nginxCheck(dir: string, config: string): Promise<string> {
  const file = path.join(dir, 'nginx-check.conf');
  await writeFile(file, config);
  return execFileSync(NGINX, ['-t', '-c', file, '-p', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
