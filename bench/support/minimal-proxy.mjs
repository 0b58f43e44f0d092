/**
 * The yardstick of issue 16's capacity target: the least a backend-for-frontend could do for `GET /api/batches`,
 * on plain `node:http`, in its own process as the app is. Per request it does the same session check as the app
 * (the iron-session seal of `tsb_session` opened once per cookie value, then the absolute lifetime and idle
 * timeout judged) and the same upstream call (a client-credentials token cached per organisation until shortly
 * before it expires, one `GET /v2/batches` over a keep-alive connection), then pipes the service's answer through
 * untouched: no validation, no error mapping, no logging, no compression, no security headers.
 *
 * Plain JavaScript on purpose: nothing between node and the request but this file and iron-session.
 * Environment: PORT, UPSTREAM (the service's base URL), SESSION_SECRET (the app's), SESSION_TTL_S, SESSION_IDLE_S.
 */
import http from 'node:http';
import { unsealData } from 'iron-session';

const port = Number(process.env.PORT);
const upstream = new URL(process.env.UPSTREAM);
const passwords = { 1: process.env.SESSION_SECRET };
const ttlS = Number(process.env.SESSION_TTL_S ?? 12 * 3600);
const idleS = Number(process.env.SESSION_IDLE_S ?? 30 * 60);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** Opened seals by cookie value (bounded), as the app's SealedSessionCache. */
const sessions = new Map();
/** clientId → { token, renewAt } or a pending promise of one. */
const tokens = new Map();

function cookieValue(header, name) {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

async function session(req) {
  const seal = cookieValue(req.headers.cookie, 'tsb_session');
  if (!seal) return null;
  let data = sessions.get(seal);
  if (!data) {
    data = await unsealData(seal, { password: passwords, ttl: ttlS });
    if (!data.clientId) return null;
    if (sessions.size >= 1000) sessions.delete(sessions.keys().next().value);
    sessions.set(seal, data);
  }
  const now = Date.now();
  if (now >= data.createdAt + ttlS * 1000 || now >= data.lastSeenAt + idleS * 1000) return null;
  return data;
}

function send(options, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: upstream.hostname, port: upstream.port, ...options }, resolve);
    req.once('error', reject);
    req.end(body);
  });
}

async function readJson(res) {
  const chunks = [];
  for await (const chunk of res) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function token(data) {
  const held = tokens.get(data.clientId);
  if (held && !(held instanceof Promise) && held.renewAt > Date.now()) return held.token;
  if (held instanceof Promise) return held;
  const pending = (async () => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: data.clientId,
      client_secret: data.clientSecret,
    }).toString();
    const res = await send(
      {
        method: 'POST',
        path: '/v2/auth',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) },
      },
      form,
    );
    const body = await readJson(res);
    if (res.statusCode !== 200) throw new Error(`auth ${res.statusCode}`);
    const lifeMs = Number(body.expires_in ?? 300) * 1000;
    tokens.set(data.clientId, { token: body.access_token, renewAt: Date.now() + Math.max(lifeMs - 5000, lifeMs / 2) });
    return body.access_token;
  })();
  tokens.set(data.clientId, pending);
  pending.catch(() => tokens.delete(data.clientId));
  return pending;
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://proxy');
    if (url.pathname !== '/api/batches') return res.writeHead(404).end();
    const data = await session(req);
    if (!data) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"not signed in"}');
    const query = new URLSearchParams();
    for (const name of ['start_date', 'end_date'])
      if (url.searchParams.has(name)) query.set(name, url.searchParams.get(name));
    if (url.searchParams.has('cursor')) query.set('next_token', url.searchParams.get('cursor'));
    const answer = await send({
      method: 'GET',
      path: `/v2/batches?${query}`,
      headers: { authorization: `Bearer ${await token(data)}` },
    });
    res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
    answer.pipe(res);
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  }
});
server.keepAliveTimeout = 5000;
server.listen(port, '127.0.0.1', () => console.log(`minimal proxy on ${port}`));
