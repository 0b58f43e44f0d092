import { z } from 'zod';
import { ApiError } from '@/lib/server/api-error';
import { route } from '@/lib/server/route';
import { endSession, startSession } from '@/lib/server/session';
import { admitSignIn, noteFailedSignIn } from '@/lib/server/sign-in-throttle';
import { clientFor } from '@/lib/server/upstream';
import { AuthenticationError } from '@/lib/batch-api';

const SignInSchema = z
  .object({
    clientId: z.string({ error: 'required, a string' }).min(1, 'required').max(256, 'at most 256 characters'),
    clientSecret: z.string({ error: 'required, a string' }).min(1, 'required').max(1024, 'at most 1024 characters'),
  })
  .strict();

/** Sign in with the organisation's client credentials, verified against the service's auth endpoint. */
export const POST = route({ auth: false, body: SignInSchema }, async ({ request, body }) => {
  admitSignIn(request, body.clientId);
  try {
    await clientFor(body).authenticate({ fresh: true });
  } catch (error) {
    if (error instanceof AuthenticationError) {
      noteFailedSignIn(body.clientId);
      throw new ApiError(401, 'clientSecret: the client ID or client secret is not right');
    }
    throw error;
  }
  await startSession(request, body);
  return new Response(null, { status: 204 });
});

/** Who is signed in: the client ID only, never the secret. */
export const GET = route({ auth: true }, async ({ session }) => Response.json({ clientId: session.clientId }));

export const DELETE = route({ auth: false }, async ({ request }) => {
  await endSession(request);
  return new Response(null, { status: 204 });
});
