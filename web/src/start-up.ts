/**
 * Imported first by main.tsx, so that it runs before the rest of the app is evaluated: /config.json is
 * requested at once, and a sign-in being finished (the provider's redirect back) starts loading the OIDC
 * client alongside it. A tab that holds a session does without the client until it signs out (lib/auth.tsx).
 * (This module must not import the app: only what it starts.)
 */
import { paths } from './config/paths';
import { loadRuntimeConfig } from './lib/runtime-config';

export const runtimeConfigRequest = loadRuntimeConfig();

if (window.location.pathname === paths.authCallback) void import('oidc-client-ts');
