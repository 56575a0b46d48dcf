import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/app';
import { captureInstallPrompt } from './lib/install-prompt';
import './styles.css';

// The CSP forbids eval; zod's JIT would try `new Function` and log a CSP violation.
z.config({ jitless: true });
captureInstallPrompt();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
