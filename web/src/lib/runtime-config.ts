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
  /**
   * Cognito's sign-out endpoint (https://<domain>/logout) in the cloud. Cognito requires client_id and
   * logout_uri there and accepts neither post_logout_redirect_uri nor a bare id_token_hint, so the app builds
   * that URL itself (cognitoLogoutUrl). Absent (the local provider): the issuer's standard end_session_endpoint.
   */
  logoutEndpoint?: string;
  /**
   * Sent as identity_provider on the authorize request: Cognito then sends citizens straight to the SPID/CIE
   * gateway instead of its own page with one button. Absent locally.
   */
  identityProvider?: string;
  /** The council's accessibility statement (AgID's form, published): the footer's 'Dichiarazione di accessibilità'. */
  accessibilityStatementUrl?: string;
  /** The platform the council bills through (the stage's paymentPlatform): 'Flussi MyPay' reads 'Flussi pagoPA' on 'gpd'. */
  paymentPlatform?: 'mypay' | 'gpd';
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

/** The deployment's payment platform, as /config.json says (MyPay when it does not, or before it is loaded). */
export const paymentPlatformOfConfig = (): 'mypay' | 'gpd' => (loaded?.paymentPlatform === 'gpd' ? 'gpd' : 'mypay');
