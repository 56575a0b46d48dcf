import { contrastRatio, WCAG_AA_CONTRAST } from '../../../../shared/colors';

/**
 * The text colour's contrast against the background, as WCAG measures it: a plain line when it is
 * readable (AA, 4.5:1), a warning when it is not. The page still saves: the owner decides.
 */
export function ContrastNote({ background, text }: { background: string; text: string }) {
  const ratio = contrastRatio(background, text);
  const shown = `${ratio.toFixed(1)}:1`;
  if (ratio >= WCAG_AA_CONTRAST) {
    return (
      <p className="text-sm text-emerald-300" data-testid="contrast-note">
        Contrast {shown}: readable (WCAG AA).
      </p>
    );
  }
  return (
    <p
      role="alert"
      className="rounded-xl border border-amber-300/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100"
      data-testid="contrast-note"
    >
      Contrast {shown} is below the {WCAG_AA_CONTRAST}:1 that text needs to be easy to read (WCAG AA): many players will struggle to read
      your page. Pick a darker or lighter text colour.
    </p>
  );
}

/** Whether saving should carry the contrast warning. */
export const lowContrast = (background: string, text: string) => contrastRatio(background, text) < WCAG_AA_CONTRAST;
