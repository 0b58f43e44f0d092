import { serverTranslator } from '@/lib/server/http/reader-locale';

/** The 403 page: another organisation's address, or a page the person's role does not open. Never their data. */
export default async function Forbidden() {
  const t = await serverTranslator('people');
  return (
    <main style={{ maxWidth: '40rem', margin: '0 auto', padding: '4rem 1.25rem' }}>
      <h1>{t('forbidden.title')}</h1>
      <p>{t('forbidden.text')}</p>
      <p>
        <a href="/batches">{t('forbidden.back')}</a>
      </p>
    </main>
  );
}
