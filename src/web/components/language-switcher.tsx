import { useId, useState } from 'react';
import { LOCALES, LOCALE_NAMES, isLocale } from '../../shared/i18n/locales';
import { changeLocale } from '../i18n/change-locale';
import { useT } from '../i18n/use-t';

/**
 * The site's languages, each by its own name. Choosing one changes the page at once and is kept
 * on the device and, signed in, on the account (its e-mails follow it).
 */
export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const { t, locale } = useT();
  const id = useId();
  const [failed, setFailed] = useState(false);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-semibold text-slate-400">
        {t('common.language.label')}
      </label>
      <select
        id={id}
        data-testid="language-switcher"
        value={locale}
        onChange={(event) => {
          const next = event.target.value;
          if (!isLocale(next)) return;
          setFailed(false);
          changeLocale(next).catch(() => setFailed(true));
        }}
        className="min-h-11 rounded-xl border border-white/10 bg-white/5 px-3 text-sm text-slate-100"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l} className="bg-slate-900">
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
      {failed ? (
        <p role="alert" className="text-xs text-red-300">
          {t('common.language.saveFailed')}
        </p>
      ) : null}
    </div>
  );
}
