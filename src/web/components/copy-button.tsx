import { useEffect, useState } from 'react';
import { useT } from '../i18n/use-t';
import { Button } from './button';

/**
 * Copies `text` to the clipboard and says so for a moment; where the browser refuses (no
 * permission, not a secure page) it asks to select and copy by hand. `onCopy` runs on each press.
 */
export function CopyButton({
  text,
  label,
  onCopy,
  className = '',
}: {
  text: string;
  label?: string;
  onCopy?: () => void;
  className?: string;
}) {
  const { t } = useT();
  const [state, setState] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!state) return;
    const timer = window.setTimeout(() => setState(null), 2500);
    return () => window.clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    onCopy?.();
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <Button variant="secondary" className={`min-h-11 shrink-0 px-3 ${className}`} onClick={() => void copy()}>
      <span aria-live="polite">
        {state === 'copied'
          ? t('common.copy.copied')
          : state === 'failed'
            ? t('common.copy.selectAndCopy')
            : (label ?? t('common.copy.copy'))}
      </span>
    </Button>
  );
}
