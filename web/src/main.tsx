import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { setSessionLostHandler } from './app/api.ts';
import { makeStore } from './app/store.ts';
import { ThemeProvider } from './app/theme.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { endSession } from './features/auth/session.ts';
import { PageFallback } from './features/shell/AppShell.tsx';
import './styles.css';

const store = makeStore();

// A rejected token anywhere ends the session; the token guard then sends protected screens to /login.
setSessionLostHandler(() => endSession(store.dispatch, true));

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
