'use client';

/** Last resort for a render failure: say so plainly and offer to try again. */
export default function BatchesError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main style={{ padding: '2rem 1.25rem' }}>
      <h1>Something went wrong</h1>
      <p role="alert">The batch explorer could not be shown. Your filters are kept in the address bar.</p>
      <button type="button" className="button" onClick={reset}>
        Try again
      </button>
    </main>
  );
}
