import styles from './page.module.css';

/** Placeholder until the dashboard pages land: says what the product is and where its data comes from. */
export default function HomePage() {
  return (
    <main className={styles.main}>
      <h1>Tray-scan batches</h1>
      <p className={styles.muted}>
        Germination and usable-seedling rates, seedling counts, size uniformity and warnings of every tray-scan batch
        of your organisation, with links to the full analysis reports.
      </p>
      <section className={styles.card} aria-labelledby="status-heading">
        <h2 id="status-heading">The dashboard is on its way</h2>
        <p>
          The batch explorer and charts are being built. Sign-in with your organisation&apos;s client credentials
          comes next; until then this page only confirms that the app is up.
        </p>
      </section>
    </main>
  );
}
