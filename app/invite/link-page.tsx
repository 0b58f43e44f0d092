import { LinkForm } from '@/components/auth/link-form';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { whenProvisioned } from '@/lib/server/org/provisioning';
import { languageChoice, serverTranslator } from '@/lib/server/http/reader-locale';
import { settingsStore } from '@/lib/server/settings';
import styles from '@/app/sign-in/sign-in.module.css';

/**
 * The page of an invite or reset link: for whom and which organisation, and the form that sets the password;
 * a link used, expired or unknown says so (the same for all three) and points to sign-in.
 */
export async function LinkPage({ token, kind }: { token: string; kind: 'invite' | 'reset' }) {
  await whenProvisioned();
  const link = await settingsStore().links.peek(token);
  const [t, brand] = await Promise.all([serverTranslator('people'), serverTranslator('common')]);
  return (
    <main className={styles.main}>
      <div className={styles.language}>
        <LanguageSwitch {...await languageChoice()} />
      </div>
      <h1>{brand('brand')}</h1>
      {link && link.kind === kind ? (
        <>
          <h2 className={styles.subtitle}>{t(kind === 'invite' ? 'link.inviteTitle' : 'link.resetTitle')}</h2>
          <p className={styles.muted}>
            {t.rich(kind === 'invite' ? 'link.inviteIntro' : 'link.resetIntro', {
              org: () => <strong>{link.organisation.name}</strong>,
              email: () => <strong className={styles.address}>{link.email}</strong>,
            })}
          </p>
          <LinkForm token={token} kind={kind} name={link.name} organisation={link.organisation.slug} />
        </>
      ) : (
        <>
          <h2 className={styles.subtitle}>{t('link.goneTitle')}</h2>
          <p role="alert">{t('link.gone')}</p>
          <p>
            <a href="/sign-in">{t('link.toSignIn')}</a>
          </p>
        </>
      )}
    </main>
  );
}
