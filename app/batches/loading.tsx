import { serverTranslator } from '@/lib/server/http/reader-locale';

export default async function Loading() {
  const t = await serverTranslator('common');
  return (
    <main style={{ padding: '2rem 1.25rem' }}>
      <p role="status">{t('loadingBatches')}</p>
    </main>
  );
}
