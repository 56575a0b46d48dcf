import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startFromRenderedAnswers } from './app/rendered-answers';
import { captureInstallPrompt } from './lib/install-prompt';
import { createQueryClient } from './lib/query-client';
import './styles.css';

captureInstallPrompt();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The app renders over what the HTML painted while the scripts loaded: a page the server rendered
// (docs/decisions/042-server-rendered-pages.md), drawn again at once from the same answers, or else
// the frame (navigation, the loading state, the footer: docs/decisions/037-landing-page-without-the-app.md).
const queryClient = createQueryClient();
await startFromRenderedAnswers(queryClient);
// In a transition: React renders in slices and yields between them, so a phone stays responsive
// while the app draws itself; the HTML's page stays on screen until the app's is ready.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
});
