export default function Loading() {
  return (
    <main style={{ padding: '2rem 1.25rem' }}>
      <p role="status">Loading batches…</p>
    </main>
  );
}
