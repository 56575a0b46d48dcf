import { useT } from '../../../i18n/use-t';
import { INSTALL_HINT_MESSAGES, installHintAttribute, type InstallHintKind } from '../install-hint';
import { ISLAND_TEXT, ISLAND_TEXTS_ID } from '../static/texts';

/**
 * Texts the pre-rendered landing page's script may write, in the page's language, as attributes of
 * an inert template: the script carries no catalog (its budget is a few kilobytes), so it reads
 * them from here. What it adds as whole elements (the iPhone banner, the count's error line) has
 * templates of its own.
 */
export function IslandTexts() {
  const { t } = useT();
  const texts: Record<string, string> = {
    [ISLAND_TEXT.menuClose]: t('common.nav.closeMenu'),
    [ISLAND_TEXT.installReady]: t('landing.install.ready'),
    [ISLAND_TEXT.installWaiting]: t('landing.install.waiting'),
  };
  for (const kind of Object.keys(INSTALL_HINT_MESSAGES) as InstallHintKind[]) {
    texts[installHintAttribute(kind)] = t(INSTALL_HINT_MESSAGES[kind]);
  }
  return <template id={ISLAND_TEXTS_ID} {...texts} />;
}
