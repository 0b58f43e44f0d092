import { z } from 'zod';
import { recordEntry } from '@/lib/server/audit/record';
import { signInWithPassword } from '@/lib/server/auth/password-sign-in';
import { sessions } from '@/lib/server/auth/sessions';
import { storableTextProblem } from '@/lib/contract/storable-text';
import { countSignIns } from '@/lib/server/metrics/sign-ins';
import { otherMethods } from '@/lib/server/http/methods';
import { MAX_PASSWORD } from '@/lib/server/people/passwords';
import { route } from '@/lib/server/http/route';

/**
 * A field of the form. Its 422 still starts with the field's name for API clients (`email: ...`); what follows
 * reads as a sentence for the person who may see it: `email: the e-mail address is empty; enter your e-mail address`.
 */
const field = (name: string, max: number) =>
  z
    .string({ error: `the ${name} is missing or not text; enter your ${name}` })
    .min(1, `the ${name} is empty; enter your ${name}`)
    .max(max, `the ${name} is too long; it has at most ${max} characters`);

/** The e-mail address is looked up in the database: it may not hold what no database (nor form encoding) keeps. */
const email = field('e-mail address', 320).superRefine((text, ctx) => {
  const problem = storableTextProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: `the e-mail address ${problem}` });
});

const SignInSchema = z.strictObject({ email, password: field('password', MAX_PASSWORD) });

/** Sign in with e-mail and password: 204 and the session cookie, or the same 401 for a wrong password and an unknown address. */
export const POST = countSignIns(
  'password',
  route({ auth: false, people: true, body: SignInSchema }, async ({ request, body, cookies, address }) => {
    await signInWithPassword({ ...body, request, cookies, address });
    return new Response(null, { status: 204 });
  }),
);

/** Who is signed in, the organisation this request acts for (`org=`, else their default), their role, and all their organisations. */
export const GET = route({ auth: true }, async ({ actor }) =>
  Response.json({
    user: { email: actor.person.email, name: actor.person.name },
    organisation: { id: actor.organisation.id, slug: actor.organisation.slug, name: actor.organisation.name },
    role: actor.role,
    organisations: actor.memberships.map(({ organisation: { id, slug, name }, role }) => ({ id, slug, name, role })),
  }),
);

/** Signs this browser out: the session is revoked for good, on every instance. */
export const DELETE = route({ auth: false }, async ({ cookies, address }) => {
  const ended = await sessions().end(cookies);
  if (ended) {
    const { id, email, name } = ended.person;
    await recordEntry({
      organisationId: null,
      actor: { id, email, name },
      action: 'sign_out',
      subject: email,
      address,
      method: ended.method,
    });
  }
  return new Response(null, { status: 204 });
});

export const { HEAD, OPTIONS, PUT, PATCH } = otherMethods({ GET, POST, DELETE });
