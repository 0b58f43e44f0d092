'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { ApiFailure } from '@/lib/explorer/api-failure';

/** A session that ended (401) sends the person to sign in, and back to this very view afterwards. */
export function useSignInOnExpiry(error: Error | null): void {
  const router = useRouter();
  useEffect(() => {
    if (error instanceof ApiFailure && error.status === 401) {
      router.replace(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
  }, [error, router]);
}
