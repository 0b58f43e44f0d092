import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { metrics } from './registry';

export type MetricsAnswer = { status: number; headers: Record<string, string>; body: string };

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <token>` against the configured token, in constant time. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * The answer to GET /metrics: Prometheus's text format. `token` unset: the caller is the loopback metrics
 * listener (METRICS_PORT), which asks for none; set: the app's own port, where the bearer must match.
 */
export async function metricsAnswer(
  authorization: string | undefined,
  token: string | undefined,
): Promise<MetricsAnswer> {
  const headers = { 'cache-control': 'no-store', 'content-type': 'application/json' };
  if (token !== undefined && !bearerMatches(authorization, token)) {
    return {
      status: 401,
      headers: { ...headers, 'www-authenticate': 'Bearer realm="metrics"' },
      body: JSON.stringify({ detail: 'authorization: the metrics token is missing or not right' }),
    };
  }
  const { registry } = metrics();
  return {
    status: 200,
    headers: { 'cache-control': 'no-store', 'content-type': registry.contentType },
    body: await registry.metrics(),
  };
}
