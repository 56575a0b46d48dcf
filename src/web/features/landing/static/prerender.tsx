import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StaticRouter } from 'react-router';
import { PageFrame } from '../../../components/page-frame';
import { IosInstallHint } from '../components/ios-install-hint';
import { LandingPage } from '../components/landing-page';
import { CountUnavailable } from '../components/live-player-count';

/**
 * The landing page as a first-time visitor sees it, rendered at build time into `landing.html`
 * (see docs/decisions/037-landing-page-without-the-app.md): the same components the app renders
 * at `/`, signed out, before any count is known. The pieces `island.ts` may add later (the iPhone
 * install banner, the count's error line) ride along as inert templates, so they come from the
 * same components too.
 */
export function renderLandingPage(): string {
  const markup = renderToStaticMarkup(
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
      </StaticRouter>
    </QueryClientProvider>,
  );
  return markup;
}
