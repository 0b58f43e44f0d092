import { useTranslations } from 'use-intl';
import { DASH } from '@/lib/i18n/formats';
import { safeHttpUrl } from '@/lib/safe-url';

/** A real link only for http(s); anything else is inert text. `tabbable: false` leaves it out of the Tab order. */
export function AnalysisLink({ link, tabbable = true }: { link: string | null; tabbable?: boolean }) {
  const t = useTranslations('explorer.table');
  const href = safeHttpUrl(link);
  if (href) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" tabIndex={tabbable ? undefined : -1}>
        {t('openAnalysis')}
      </a>
    );
  }
  return link ? <span title={t('notALink')}>{link}</span> : <>{DASH}</>;
}
