import 'server-only';
import * as client from 'openid-client';
import { needsUserInfo } from './claims';
import type { OidcSettings } from './settings';
import type { Transaction } from './transaction';

/**
 * The OpenID provider, through openid-client (a certified relying party): discovery, the authorization URL
 * (code flow with PKCE S256, state and nonce), the code exchange with every ID token check, and userinfo.
 * A provider under a private CA is trusted through Node's NODE_EXTRA_CA_CERTS, which Node's fetch honours.
 */

/** How long one request to the provider may take: a person is waiting on the other end. */
const TIMEOUT_S = 10;
/** Discovery is kept this long, then read again (keys are refetched by openid-client when one is unknown). */
const METADATA_TTL_MS = 60 * 60 * 1000;

type Cached = { settings: OidcSettings; config: Promise<client.Configuration>; at: number };
const holder = globalThis as unknown as { __oidcProvider?: Cached };

/** The provider's configuration, discovered once and shared; a failed discovery is tried again next time. */
export function providerConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const cached = holder.__oidcProvider;
  if (cached && cached.settings === settings && Date.now() - cached.at < METADATA_TTL_MS) return cached.config;
  const config = client
    // client_secret_basic: the method every provider must support, and Okta's default for a web app.
    .discovery(
      new URL(settings.issuer),
      settings.clientId,
      undefined,
      client.ClientSecretBasic(settings.clientSecret),
      { timeout: TIMEOUT_S },
    )
    .then((c) => {
      c.timeout = TIMEOUT_S;
      return c;
    });
  const entry: Cached = { settings, config, at: Date.now() };
  holder.__oidcProvider = entry;
  config.catch(() => {
    if (holder.__oidcProvider === entry) holder.__oidcProvider = undefined;
  });
  return config;
}

/** A new transaction and the provider's URL to send the browser to. */
export async function authorizationRequest(
  settings: OidcSettings,
  redirectUri: string,
  next: string,
): Promise<{ url: URL; transaction: Transaction }> {
  const config = await providerConfiguration(settings);
  const transaction: Transaction = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    next,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: settings.scopes.join(' '),
    state: transaction.state,
    nonce: transaction.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
    code_challenge_method: 'S256',
  });
  return { url, transaction };
}

/**
 * The claims of the person the provider signed in: the code exchanged (PKCE verifier, state, nonce, issuer,
 * audience, expiry and signature all checked by openid-client), then the userinfo answer merged under the ID
 * token's claims when the token lacks the e-mail or the role claim.
 */
export async function signedInClaims(
  settings: OidcSettings,
  callbackUrl: URL,
  transaction: Transaction,
): Promise<Record<string, unknown>> {
  const config = await providerConfiguration(settings);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: transaction.verifier,
    expectedState: transaction.state,
    expectedNonce: transaction.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  if (!needsUserInfo(claims, settings) || !config.serverMetadata().userinfo_endpoint) return { ...claims };
  const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { ...userInfo, ...claims };
}
