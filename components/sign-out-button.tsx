'use client';

import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { wipeRangeCache } from './explorer/range/range-cache-browser';

/**
 * Ends the session on the server (revoked for good), then loads the sign-in page afresh so no batch data
 * stays in memory, and empties this browser's cache of ranges (whose entries a new session could not read
 * anyway). If the server did not confirm, the person is told instead of being shown a false sign-out.
 */
export function SignOutButton() {
  const t = useTranslations('common');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <>
      {failed && (
        <span role="alert" style={{ color: 'var(--danger)' }}>
          {t('signOutFailed')}
        </span>
      )}
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setFailed(false);
          // The cache goes whatever the server answers: the person asked for nothing of theirs to stay here.
          const [response] = await Promise.all([
            fetch('/api/session', { method: 'DELETE' }).catch(() => null),
            wipeRangeCache(),
          ]);
          if (response && (response.status === 204 || response.status === 401)) {
            // A full page load on purpose: nothing of the signed-out session stays in memory.
            // eslint-disable-next-line @next/next/no-location-assign-relative-destination
            window.location.assign('/sign-in');
            return;
          }
          setFailed(true);
          setBusy(false);
        }}
      >
        {t('signOut')}
      </button>
    </>
  );
}
