'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** Ends the session on the server (revoked for good), then goes to the sign-in page. */
export function SignOutButton() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await fetch('/api/session', { method: 'DELETE' }).catch(() => undefined);
        router.replace('/sign-in');
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
