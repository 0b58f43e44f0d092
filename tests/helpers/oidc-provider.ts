import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';
import type { TestCa } from './test-ca';

/** What the provider says about one of its people (their login is the key they are kept under). */
export type ProviderAccount = {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  preferred_username?: string;
};

export type OidcProvider = {
  issuer: string;
  /** The provider's people, by login: change them between sign-ins (a group added or removed). */
  accounts: Map<string, ProviderAccount>;
  /** Stops answering (the port refuses connections) until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
};

export const PROVIDER_CLIENT = { id: 'tray-scan-dashboard', secret: 'provider-issued-client-secret-0123456789' };

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's own sign-in page: a login and a Cancel, as Keycloak's or Okta's page has. */
function loginPage(uid: string, clientId: string): string {
  return `<!doctype html><html lang="en"><head><title>Test provider: sign in</title></head><body>
<h1>Test provider</h1><p>Sign in to continue to ${escape(clientId)}.</p>
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="login">Username</label> <input id="login" name="login" autocomplete="off" autofocus>
<button type="submit">Continue</button></form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit">Cancel</button></form>
</body></html>`;
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A real OpenID provider (panva's oidc-provider, certified by the OpenID Foundation) on loopback over https,
 * under the test's own CA: discovery, the authorization endpoint with PKCE required, the token endpoint
 * (client_secret_basic), signed ID tokens and userinfo. Claims asked for by scope go to userinfo, as the
 * specification's default has it (the ID token carries sub and nonce). Its sign-in page takes a login and
 * knows no passwords; Cancel answers `access_denied`, as a person cancelling at a real provider does.
 */
export async function startOidcProvider(options: {
  port: number;
  ca: TestCa;
  redirectUris: string[];
}): Promise<OidcProvider> {
  const issuer = `https://127.0.0.1:${options.port}`;
  const accounts = new Map<string, ProviderAccount>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const configuration: Configuration = {
    clients: [
      {
        client_id: PROVIDER_CLIENT.id,
        client_secret: PROVIDER_CLIENT.secret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] as never },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    // A first-party client: consent is given by signing in, as for an organisation's own app registration.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      });
      grant.addOIDCScope(String(ctx.oidc.params!.scope));
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();

  async function interaction(
    request: IncomingMessage,
    response: ServerResponse,
    uid: string,
    step: string | undefined,
  ) {
    const details = await provider.interactionDetails(request, response);
    if (details.uid !== uid) throw new Error('unknown interaction');
    if (request.method === 'GET' && !step) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(loginPage(uid, String(details.params.client_id)));
      return;
    }
    if (request.method !== 'POST') throw new Error('not allowed');
    const result =
      step === '/login'
        ? { login: { accountId: (await formBody(request)).get('login') ?? '' } }
        : { error: 'access_denied', error_description: 'End-User aborted interaction' };
    await provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false });
  }

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(new URL(request.url ?? '/', issuer).pathname);
    if (!match) return void handle(request, response);
    interaction(request, response, match[1]!, match[2]).catch(() => {
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain' });
      response.end('interaction failed');
    });
  };

  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer({ cert: options.ca.cert, key: options.ca.key }, listener);
      s.once('error', reject);
      s.listen(options.port, '127.0.0.1', () => resolve());
      server = s;
    });
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return { issuer, accounts, pause: close, resume: listen, stop: close };
}
