import { contrastRatio, WCAG_AA_CONTRAST } from '../../../../shared/colors';
import { useT } from '../../../i18n/use-t';
import { numberFormat } from '../../../lib/format';

/**
 * The text colour's contrast against the background, as WCAG measures it: a plain line when it is
 * readable (AA, 4.5:1), a warning when it is not. The page still saves: the owner decides.
 */
export function ContrastNote({ background, text }: { background: string; text: string }) {
  const { t } = useT();
  const ratio = contrastRatio(background, text);
  const shown = numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ratio);
  if (ratio >= WCAG_AA_CONTRAST) {
    return (
      <p className="text-sm text-emerald-300" data-testid="contrast-note">
        {t('owner.contrast.ok', { ratio: shown })}
      </p>
    );
  }
  return (
    <p
      role="alert"
      className="rounded-xl border border-amber-300/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100"
      data-testid="contrast-note"
    >
      {t('owner.contrast.low', { ratio: shown, min: numberFormat().format(WCAG_AA_CONTRAST) })}
    </p>
  );
}

/** Whether saving should carry the contrast warning. */
export const lowContrast = (background: string, text: string) => contrastRatio(background, text) < WCAG_AA_CONTRAST;
