import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { startFromRenderedAnswers } from './app/rendered-answers';
import { captureInstallPrompt } from './lib/install-prompt';
import { activateLocale, i18n, startLocale } from './i18n/browser';
import { onAppStarted } from './lib/app-started';
import { createQueryClient } from './lib/query-client';
import './styles.css';

captureInstallPrompt();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A page the server rendered (docs/decisions/042-server-rendered-pages.md) is hydrated: the app
// starts from the same answers and takes over the markup as it is. Otherwise (a signed-in visitor,
// whose page differs from the anonymous one the server drew, or any other page) the app renders
// over what the HTML painted: the rendered page, or the frame (navigation, the loading state, the
// footer: docs/decisions/037-landing-page-without-the-app.md). In a transition: React renders in
// slices and yields between them, so a phone stays responsive while the app draws itself.
const queryClient = createQueryClient();
// The language the server drew the page in, so hydration finds the same words.
const [start] = await Promise.all([startFromRenderedAnswers(queryClient), activateLocale(startLocale())]);
// Once the first page is on screen with its content (`html[data-app="started"]`, lib/app-started.tsx).
onAppStarted(start.started);
const app = (
  <StrictMode>
    <App queryClient={queryClient} i18n={i18n} renderedAt={start.renderedAt} />
  </StrictMode>
);
if (start.hydrate) {
  startTransition(() => {
    hydrateRoot(root, app, {
      // A text the visitor's locale or clock formats differently is drawn again by the client: not an error.
      onRecoverableError: (error) => console.warn('the page was drawn again in the browser:', error),
    });
  });
} else {
  startTransition(() => {
    createRoot(root).render(app);
  });
}
