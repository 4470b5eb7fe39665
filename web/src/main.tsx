import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { setSessionLostHandler } from './app/api.ts';
import { keepSessionAlive } from './app/sessionKeeper.ts';
import { makeStore } from './app/store.ts';
import { ThemeProvider } from './app/theme.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { endSession } from './features/auth/session.ts';
import { PageFallback } from './features/shell/AppShell.tsx';
import './styles.css';

const store = makeStore();

// A session the server ended (a refused token that cannot be renewed) ends here too; the token guard
// then sends protected screens to /login. The keeper renews the token before it expires and follows
// the other tabs' sign-ins and sign-outs.
const sessionLost = () => endSession(store.dispatch, true);
setSessionLostHandler(sessionLost);
keepSessionAlive(store, { onSessionLost: sessionLost });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <ThemeProvider>
        <BrowserRouter>
          <Suspense fallback={<PageFallback />}>
            <AppRoutes />
          </Suspense>
        </BrowserRouter>
      </ThemeProvider>
    </Provider>
  </StrictMode>,
);
