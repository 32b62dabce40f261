import { ThemeProvider } from '@aws-amplify/ui-react';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '@/lib/auth';
import type { RuntimeConfig } from '@/lib/runtime-config';
import { theme } from '@/theme';
import { router } from './router';

export function App({ config }: { config: RuntimeConfig }) {
  return (
    <ThemeProvider theme={theme} colorMode="light">
      <AuthProvider config={config}>
        <RouterProvider router={router} />
      </AuthProvider>
    </ThemeProvider>
  );
}
