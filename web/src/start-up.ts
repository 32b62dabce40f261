/**
 * Imported first by main.tsx, so that it runs before the rest of the app is evaluated: /config.json is
 * requested at once, and a tab that holds a session starts loading the OIDC client alongside it.
 * (This module must not import the app: only what it starts.)
 */
import { loadRuntimeConfig } from './lib/runtime-config';

export const runtimeConfigRequest = loadRuntimeConfig();

try {
  if (Object.keys(window.sessionStorage).some((key) => key.startsWith('oidc.user:'))) void import('oidc-client-ts');
} catch {
  // No session storage (a privacy mode): nothing to preload.
}
