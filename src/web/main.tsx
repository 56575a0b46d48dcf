import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { captureInstallPrompt } from './lib/install-prompt';
import './styles.css';

captureInstallPrompt();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The app renders over the frame index.html paints while the scripts load (navigation, the loading
// state, the footer: docs/decisions/037-landing-page-without-the-app.md).
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
