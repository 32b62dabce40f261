/**
 * What the web app learns at start-up from /config.json: written by the local runtime on a developer's
 * machine, and by the CDK web stack (from the API and user-pool outputs) in the cloud.
 */
export interface RuntimeConfig {
  /** Base URL of the API; '' means the same origin as the web app. */
  apiBaseUrl: string;
  /** The OIDC issuer: the local provider, or the Cognito user pool. */
  issuer: string;
  clientId: string;
  scope: string;
  /** Resource indicator asked for in the token request (local provider); absent for Cognito. */
  resource?: string;
  /** Where to send the browser to sign out when the issuer publishes no end_session_endpoint (Cognito). */
  signOutUrl?: string;
}

let loaded: RuntimeConfig | undefined;

export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  if (!loaded) {
    // index.html preloads /config.json: this request takes the preloaded response (same URL, mode and
    // credentials, default cache mode); the server marks it no-cache, so a visit never uses a stale copy.
    const response = await fetch('/config.json');
    if (!response.ok) throw new Error('Configurazione non disponibile');
    loaded = (await response.json()) as RuntimeConfig;
  }
  return loaded;
}

export function runtimeConfig(): RuntimeConfig {
  if (!loaded) throw new Error('loadRuntimeConfig() must run before the app renders');
  return loaded;
}
