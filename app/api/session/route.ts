import { z } from 'zod';
import { AuthenticationError } from '@/lib/batch-api';
import { storableTextProblem } from '@/lib/contract/storable-text';
import { AppError } from '@/lib/server/app-error';
import { countSignIns } from '@/lib/server/metrics/sign-ins';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { sessions } from '@/lib/server/session';
import { guardSignIn } from '@/lib/server/sign-in-throttle';
import { clientFor } from '@/lib/server/upstream';

/**
 * A credential field. Its 422 still starts with the field's name for API clients (`clientId: ...`); what
 * follows reads as a sentence for the person who may see it: `clientId: the client ID is empty; enter your client ID`.
 */
const credential = (name: string, max: number) =>
  z
    .string({ error: `the ${name} is missing or not text; enter your ${name}` })
    .min(1, `the ${name} is empty; enter your ${name}`)
    .max(max, `the ${name} is too long; it has at most ${max} characters`)
    // The client ID keys the organisation's stored settings: neither may hold what no database (nor form encoding) keeps.
    .superRefine((text, ctx) => {
      const problem = storableTextProblem(text, { controls: true });
      if (problem) ctx.addIssue({ code: 'custom', message: `the ${name} ${problem}` });
    });

const SignInSchema = z.object({ clientId: credential('client ID', 256), clientSecret: credential('client secret', 1024) }).strict();

/** Sign in with the organisation's client credentials, verified against the service's auth endpoint. */
export const POST = countSignIns('client_credentials', route({ auth: false, body: SignInSchema }, async ({ request, body, cookies }) => {
  if (!(await guardSignIn(request, body, () => accepted(body)))) {
    throw new AppError('credentials_refused', 'the client ID or client secret is not right', { field: 'clientSecret' });
  }
  await sessions().start(cookies, body);
  return new Response(null, { status: 204 });
}));

/** One call to the auth endpoint: true when it accepts the credentials, false when it refuses them. */
async function accepted(credentials: z.infer<typeof SignInSchema>): Promise<boolean> {
  try {
    await clientFor(credentials).authenticate({ fresh: true });
    return true;
  } catch (error) {
    if (error instanceof AuthenticationError) return false;
    throw error;
  }
}

/** Who is signed in: the client ID only, never the secret. */
export const GET = route({ auth: true }, async ({ session }) => Response.json({ clientId: session.clientId }));

export const DELETE = route({ auth: false }, async ({ cookies }) => {
  await sessions().end(cookies);
  return new Response(null, { status: 204 });
});

export const { HEAD, OPTIONS, PUT, PATCH } = otherMethods({ GET, POST, DELETE });
