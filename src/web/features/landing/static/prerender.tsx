import { renderToStaticMarkup } from 'react-dom/server';
import type { I18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StaticRouter } from 'react-router';
import { isLocale } from '../../../../shared/i18n/locales';
import { PageFrame } from '../../../components/page-frame';
import { currentFormatLocale, setFormatLocale } from '../../../i18n/runtime';
import { IosInstallHint } from '../components/ios-install-hint';
import { IslandTexts } from '../components/island-texts';
import { LandingPage } from '../components/landing-page';
import { CountUnavailable } from '../components/live-player-count';

/**
 * The landing page as a first-time visitor sees it, rendered at build time into `landing.html`
 * (see docs/decisions/037-landing-page-without-the-app.md), once per language (`i18n`'s): the same
 * components the app renders at `/`, signed out, before any count is known. The pieces `island.ts`
 * may add later (the iPhone install banner, the count's error line) ride along as inert templates,
 * so they come from the same components too, and so do the texts it may write (`IslandTexts`): the
 * script carries no catalog.
 */
export function renderLandingPage(i18n: I18n): string {
  // Numbers are written in the page's language: set it for this render (synchronous), then put it back.
  const before = currentFormatLocale();
  if (isLocale(i18n.locale)) setFormatLocale(i18n.locale);
  try {
    return renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <StaticRouter location="/">
            <PageFrame account="visitor">
              <LandingPage />
            </PageFrame>
            <template id="landing-ios-hint">
              <IosInstallHint visible dismiss={() => {}} />
            </template>
            <template id="landing-count-error">
              <CountUnavailable />
            </template>
            <IslandTexts />
          </StaticRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
  } finally {
    setFormatLocale(before);
  }
}
