import 'server-only';
import type { SsoFailure } from '@/lib/auth/sso-failures';
import { safeNextPath } from '@/lib/safe-next';
import { errorFields, logLine } from '../../logging';
import type { Role } from '../../people/roles';
import type { SessionCookies } from '../sessions';
import { domainAllowed, identityOf } from './claims';
import { classify, SsoRefusal } from './failures';
import { authorizationRequest, signedInClaims } from './provider';
import type { OidcSettings } from './settings';
import { saveTransaction, takeTransaction } from './transaction';

/**
 * The two halves of a single sign-on: the start sends the browser to the provider, the callback turns the
 * provider's answer into a person and a session. What they need of people, sessions and the activity log
 * comes in as `SsoPeople`, so the flow reads on its own.
 */
export type SsoPeople = {
  /** The person with this e-mail address, compared without regard to case, or null. */
  find(email: string): Promise<{ id: string; disabled: boolean } | null>;
  /** Creates the person (joining `organisationSlug`, else the only organisation) or updates their name and role there. */
  upsert(input: { email: string; name: string; organisationSlug?: string; role?: Role }): Promise<{ id: string }>;
  startSession(input: { personId: string; method: 'oidc'; request: Request; cookies: SessionCookies }): Promise<void>;
  /** A refused sign-in in the activity log, with the e-mail address the provider gave when it gave one. */
  recordRefusal(input: { request: Request; reason: SsoFailure; email?: string; name?: string }): Promise<void>;
};

export type SsoOutcome = { ok: true; next: string } | { ok: false; reason: SsoFailure; next: string };

export type SsoStart = { ok: true; url: URL } | { ok: false; reason: SsoFailure; next: string };

/** The provider's URL for this browser, the transaction saved in its cookie; or why the provider cannot be asked. */
export async function startSsoSignIn(
  settings: OidcSettings,
  people: SsoPeople,
  input: { request: Request; cookies: SessionCookies; redirectUri: string; next: string | undefined },
): Promise<SsoStart> {
  const next = safeNextPath(input.next);
  try {
    const { url, transaction } = await authorizationRequest(settings, input.redirectUri, next);
    await saveTransaction(input.cookies, transaction);
    return { ok: true, url };
  } catch (error) {
    return { ok: false, reason: await refuse(people, input.request, error), next };
  }
}

/** Finishes the sign-in the provider sent the browser back from; every refusal is recorded and comes back as a reason. */
export async function finishSsoSignIn(
  settings: OidcSettings,
  people: SsoPeople,
  input: { request: Request; cookies: SessionCookies; redirectUri: string },
): Promise<SsoOutcome> {
  const { request, cookies, redirectUri } = input;
  const params = new URL(request.url).searchParams;
  const transaction = await takeTransaction(cookies, params.get('state'));
  const next = transaction?.next ?? safeNextPath(null);
  let who: { email?: string; name?: string } = {};
  try {
    // None with this state: expired, never started in this browser, already used, or another sign-in's answer.
    if (!transaction) throw new SsoRefusal('expired');
    const callbackUrl = new URL(redirectUri);
    for (const [key, value] of params) callbackUrl.searchParams.append(key, value);
    const claims = await signedInClaims(settings, callbackUrl, transaction);
    const identity = identityOf(claims, settings);
    if ('refused' in identity) throw new SsoRefusal(identity.refused);
    who = identity;
    const existing = await people.find(identity.email);
    if (existing?.disabled) throw new SsoRefusal('disabled');
    // The allowed domains limit who may join; a person already known (invited by e-mail) is let in.
    if (!existing && !domainAllowed(identity.email, settings.allowedDomains)) throw new SsoRefusal('domain');
    const person = await people.upsert({
      email: identity.email,
      name: identity.name,
      organisationSlug: settings.organisation,
      role: identity.role,
    });
    await people.startSession({ personId: person.id, method: 'oidc', request, cookies });
    return { ok: true, next };
  } catch (error) {
    return { ok: false, reason: await refuse(people, request, error, who), next };
  }
}

/**
 * A refusal: logged for the operator (the reason and what the protocol said, never a token or an e-mail
 * address; a stack where it was no refusal but a fault of ours) and recorded as a failed sign-in.
 */
async function refuse(
  people: SsoPeople,
  request: Request,
  error: unknown,
  who: { email?: string; name?: string } = {},
): Promise<SsoFailure> {
  const refusal = classify(error);
  const unexpected = 'unexpected' in refusal.detail;
  logLine(unexpected ? 'error' : 'warn', 'single sign-on refused', {
    reason: refusal.reason,
    ...refusal.detail,
    ...(unexpected ? errorFields(error) : {}),
  });
  try {
    await people.recordRefusal({ request, reason: refusal.reason, ...who });
  } catch (recordError) {
    logLine('error', 'a refused single sign-on could not be recorded in the activity log', errorFields(recordError));
  }
  return refusal.reason;
}
