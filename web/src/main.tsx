import { runtimeConfigRequest } from './start-up';
import './fonts.css';
import './amplify-styles';
import './theme.css';
import './styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { requestProfileEarly } from './lib/auth';
import { takeOverFromPrerender } from './app/prerender';

const container = document.getElementById('root')!;

runtimeConfigRequest.then(
  (config) => {
    requestProfileEarly(config);
    // The app takes the prerendered shell's place when it shows a page (app/layout/shell.tsx); should that
    // not happen (a session that takes too long to answer), it shows whatever it has.
    window.setTimeout(takeOverFromPrerender, 10_000);
    const root = createRoot(container);
    // A transition: React renders the first page in slices of a few milliseconds and lets the browser
    // breathe in between, instead of one long task that a phone's slow CPU would block on.
    startTransition(() =>
      root.render(
        <StrictMode>
          <App config={config} />
        </StrictMode>,
      ),
    );
  },
  (error: unknown) => {
    // Without its configuration the portal cannot sign anyone in nor reach the API: say so plainly.
    console.error(error);
    const main = document.createElement('main');
    main.className = 'portal-unavailable';
    const heading = document.createElement('h1');
    heading.textContent = 'Portale non disponibile';
    const text = document.createElement('p');
    text.textContent = 'Il portale dei servizi sociali non è al momento raggiungibile. Riprova più tardi.';
    main.append(heading, text);
    takeOverFromPrerender();
    container.replaceChildren(main);
  },
);
