import { RouterProvider } from 'react-router';
import { AuthProvider } from '@/lib/auth';
import type { RuntimeConfig } from '@/lib/runtime-config';
import { THEME_NAME } from '@/theme';
import { router } from './router';

/**
 * The theme is static CSS (theme.css, generated from theme.ts): this wrapper is what Amplify's
 * ThemeProvider would render, without computing the theme nor injecting its 125 KB of variables at run time.
 */
export function App({ config }: { config: RuntimeConfig }) {
  return (
    <div data-amplify-theme={THEME_NAME} data-amplify-color-mode="light" dir="ltr">
      <AuthProvider config={config}>
        <RouterProvider router={router} />
      </AuthProvider>
    </div>
  );
}
