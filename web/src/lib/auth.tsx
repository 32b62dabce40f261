import type { Me } from '@domain/profile';
import type { User, UserManager } from 'oidc-client-ts';
import {
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { paths } from '@/config/paths';
import { ApiError, api, onUnauthorized, setAccessTokenProvider } from './api';
import type { RuntimeConfig } from './runtime-config';

export type { Me };
export type AuthStatus = 'loading' | 'anonymous' | 'signed-in';

/** The spec's session rule (part 2 §6): session storage is cleared after 9 hours. */
export const SESSION_MAX_AGE_MS = 32_400_000;
const SIGNED_IN_AT_KEY = 'portale.signedInAt';

export interface AuthContextValue {
  status: AuthStatus;
  /** Who is signed in, as the API sees it (role derived by the server); null unless signed in. */
  me: Me | null;
  /** An Italian message when signing in or reading the profile failed. */
  error: string | null;
  /** The API refused the token (401): the shell shows 'SESSIONE SCADUTA'. */
  sessionExpired: boolean;
  signIn: () => Promise<void>;
  signOut: () => Promise<void>;
  /** Forgets the session in this browser tab without asking the identity provider. */
  endSession: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = use(AuthContext);
  if (!value) throw new Error('useAuth() outside <AuthProvider>');
  return value;
}

/**
 * The OIDC client (oidc-client-ts) is loaded only when needed: to sign in, to finish a sign-in, or when this
 * tab already holds a session. An anonymous visitor's first load does without it.
 */
export async function createUserManager(config: RuntimeConfig, origin = window.location.origin): Promise<UserManager> {
  const { UserManager, WebStorageStateStore } = await import('oidc-client-ts');
  const resource = config.resource ? { resource: config.resource } : undefined;
  const authorize = { ...resource, ...(config.identityProvider && { identity_provider: config.identityProvider }) };
  const store = new WebStorageStateStore({ store: window.sessionStorage });
  return new UserManager({
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: `${origin}${paths.authCallback}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code', // with PKCE, which oidc-client-ts adds by itself
    scope: config.scope,
    extraQueryParams: Object.keys(authorize).length ? authorize : undefined,
    extraTokenParams: resource,
    userStore: store,
    stateStore: store,
    automaticSilentRenew: false,
    monitorSession: false,
    loadUserInfo: false,
  });
}

/**
 * Cognito's sign-out: GET /logout with client_id and logout_uri, the latter one of the client's allowed
 * sign-out URLs, URL-encoded (Cognito developer guide, "The managed login sign-out endpoint: /logout").
 * Cognito ends its own session and sends the browser to logout_uri.
 */
export function cognitoLogoutUrl(logoutEndpoint: string, clientId: string, logoutUri: string): string {
  return `${logoutEndpoint}?${new URLSearchParams({ client_id: clientId, logout_uri: logoutUri })}`;
}

/** oidc-client-ts keeps the signed-in user under "oidc.user:<issuer>:<client>" in the user store. */
const holdsStoredUser = () => Object.keys(window.sessionStorage).some((key) => key.startsWith('oidc.user:'));

/** A signed-in user as this module uses it: its tokens (an oidc-client-ts User, or the same read from storage). */
type SessionUser = Pick<User, 'access_token' | 'id_token'>;

/**
 * The user stored for this configuration, read without the OIDC client (the JSON that oidc-client-ts keeps
 * under "oidc.user:<issuer>:<client>"): a tab that holds a session needs the client only to sign out or in
 * again, so its first load does without it. Expiry is the API's to judge, as with the client's getUser():
 * a refused token opens 'SESSIONE SCADUTA'.
 */
function storedUser(config: RuntimeConfig): SessionUser | null {
  try {
    const stored = JSON.parse(
      window.sessionStorage.getItem(`oidc.user:${config.issuer}:${config.clientId}`) ?? 'null',
    ) as {
      access_token?: unknown;
      id_token?: unknown;
    } | null;
    if (typeof stored?.access_token !== 'string' || !stored.access_token) return null;
    return {
      access_token: stored.access_token,
      id_token: typeof stored.id_token === 'string' ? stored.id_token : undefined,
    };
  } catch {
    return null;
  }
}

let earlyProfile: { token: string; request: Promise<Me> } | null = null;

/**
 * Asks for /api/me with the stored user's token as soon as the configuration is known (main.tsx, before the
 * first render), while the OIDC client loads; the provider uses the answer if the client confirms that user.
 */
export function requestProfileEarly(config: RuntimeConfig) {
  try {
    if (window.location.pathname === paths.authCallback || (sessionClock.remaining() ?? 1) <= 0) return;
    const token = storedUser(config)?.access_token;
    if (!token) return;
    const request = api.get<Me>('/api/me', token);
    request.catch(() => undefined);
    earlyProfile = { token, request };
  } catch {
    // No session storage: the provider asks for the profile itself.
  }
}

function takeEarlyProfile(token: string): Promise<Me> | null {
  const early = earlyProfile;
  earlyProfile = null;
  return early && early.token === token ? early.request : null;
}

/** A session to find (a sign-in to finish, a stored user, a session clock to check), or an anonymous visit. */
const sessionToFind = () =>
  window.location.pathname === paths.authCallback || holdsStoredUser() || sessionClock.signedInAt() !== null;

/**
 * The role of this tab's last profile: the home page loads that role's page early (app/routes/home.tsx), and
 * index.html's prerendered shell shows that role's heading, with the greeting's name (public/boot.js). Hints
 * only, never trusted for access: what the page shows and allows comes from /api/me.
 */
export const ROLE_HINT_KEY = 'portale.role';
export const GREETING_HINT_KEY = 'portale.greeting';
/** The deployment's payment platform (/config.json): the shell's operator menu reads 'Flussi pagoPA' on GPD. */
export const PLATFORM_HINT_KEY = 'portale.platform';
/** This tab's last profile (/api/me), to keep the page drawn behind 'SESSIONE SCADUTA' after a reload. */
const LAST_PROFILE_KEY = 'portale.lastProfile';

/**
 * The profile this tab last read, when the API refuses the stored token at start-up: the page the person was
 * on is drawn for it behind 'SESSIONE SCADUTA', as when the token expires during a visit, until they choose
 * Login or Home. A picture only: every call is refused (401) until they sign in again.
 */
function lastProfile(): Me | null {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(LAST_PROFILE_KEY) ?? 'null') as Partial<Me> | null;
    const roles: readonly unknown[] = ['OPERATOR', 'DELEGATE', 'CITIZEN'];
    return stored && roles.includes(stored.role) && typeof stored.fullName === 'string' ? (stored as Me) : null;
  } catch {
    return null;
  }
}

/** When this tab's session started, kept beside the tokens so that clearing one clears both. */
export const sessionClock = {
  signedInAt(): number | null {
    const value = Number(window.sessionStorage.getItem(SIGNED_IN_AT_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  },
  start(now = Date.now()) {
    window.sessionStorage.setItem(SIGNED_IN_AT_KEY, String(now));
  },
  /** Milliseconds left before the 9-hour limit; null when no session was started. */
  remaining(now = Date.now()): number | null {
    const start = this.signedInAt();
    return start === null ? null : start + SESSION_MAX_AGE_MS - now;
  },
};

/** The 9-hour limit: clear the session storage and send the user home (a full load resets the app). */
function expireSession() {
  window.sessionStorage.clear();
  window.location.assign('/');
}

const SIGN_IN_FAILED = 'Accesso non riuscito. Riprova.';
const PROFILE_FAILED = 'Non è stato possibile leggere il tuo profilo. Riprova più tardi.';

/**
 * Finds the session of this tab, once per page load (React's strict mode runs effects twice, and a sign-in
 * response can be redeemed only once): completes a sign-in on the callback page, otherwise reads the
 * stored user.
 */
const bootstraps = new WeakMap<() => Promise<UserManager>, Promise<SessionUser | null>>();
function bootstrap(config: RuntimeConfig, getUserManager: () => Promise<UserManager>): Promise<SessionUser | null> {
  let pending = bootstraps.get(getUserManager);
  if (!pending) {
    pending = (async () => {
      const remaining = sessionClock.remaining();
      if (remaining !== null && remaining <= 0) {
        window.sessionStorage.clear();
        if (window.location.pathname !== '/') window.location.replace('/');
        return null;
      }
      if (window.location.pathname === paths.authCallback) {
        const user = await (await getUserManager()).signinRedirectCallback();
        sessionClock.start();
        return user;
      }
      if (!holdsStoredUser()) return null;
      const user = storedUser(config) ?? (await (await getUserManager()).getUser());
      if (user && sessionClock.signedInAt() === null) sessionClock.start();
      return user;
    })();
    bootstraps.set(getUserManager, pending);
  }
  return pending;
}

interface State {
  status: AuthStatus;
  me: Me | null;
  error: string | null;
}

/** One client per configuration, created on first use. */
const managers = new WeakMap<RuntimeConfig, () => Promise<UserManager>>();
const userManagerOf = (config: RuntimeConfig) => {
  let get = managers.get(config);
  if (!get) {
    let created: Promise<UserManager> | undefined;
    get = () => (created ??= createUserManager(config));
    managers.set(config, get);
  }
  return get;
};

export function AuthProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  const getUserManager = userManagerOf(config);
  const { logoutEndpoint, clientId } = config;
  // An anonymous visit (nothing stored, no sign-in to finish) is known at once: no loading step to render.
  const [state, setState] = useState<State>(() =>
    sessionToFind() ? { status: 'loading', me: null, error: null } : { status: 'anonymous', me: null, error: null },
  );
  const [sessionExpired, setSessionExpired] = useState(false);
  const userRef = useRef<SessionUser | null>(null);

  useEffect(() => {
    setAccessTokenProvider(() => userRef.current?.access_token ?? null);
    return onUnauthorized(() => setSessionExpired(true));
  }, []);

  useEffect(() => {
    let cancelled = false;
    bootstrap(config, getUserManager)
      .then(async (user) => {
        userRef.current = user;
        if (!user) return { status: 'anonymous', me: null, error: null } satisfies State;
        try {
          const me = await (takeEarlyProfile(user.access_token) ?? api.get<Me>('/api/me'));
          try {
            window.sessionStorage.setItem(ROLE_HINT_KEY, me.role);
            window.sessionStorage.setItem(PLATFORM_HINT_KEY, config.paymentPlatform === 'gpd' ? 'gpd' : 'mypay');
            window.sessionStorage.setItem(LAST_PROFILE_KEY, JSON.stringify(me));
            const greeting = me.firstName || me.fullName;
            if (greeting) window.sessionStorage.setItem(GREETING_HINT_KEY, greeting);
            else window.sessionStorage.removeItem(GREETING_HINT_KEY);
          } catch {
            // No session storage: no hint, the home page loads when the profile says which.
          }
          return { status: 'signed-in', me, error: null } satisfies State;
        } catch (error) {
          // A 401 opens 'SESSIONE SCADUTA' through onUnauthorized; anything else is reported on the page.
          const expired = error instanceof ApiError && error.status === 401;
          // (An early request may have been refused before this provider listened: say it here as well.)
          if (expired) setSessionExpired(true);
          const last = expired ? lastProfile() : null;
          if (last) return { status: 'signed-in', me: last, error: null } satisfies State;
          return { status: 'anonymous', me: null, error: expired ? null : PROFILE_FAILED } satisfies State;
        }
      })
      .catch((error: unknown) => {
        console.error('Accesso non riuscito', error);
        return { status: 'anonymous', me: null, error: SIGN_IN_FAILED } satisfies State;
      })
      .then((next) => {
        if (cancelled) return;
        // The signed-in page renders in a transition (in slices, see main.tsx); an unchanged anonymous state
        // renders nothing again.
        startTransition(() =>
          setState((previous) =>
            previous.status === next.status && previous.me === next.me && previous.error === next.error
              ? previous
              : next,
          ),
        );
      });
    return () => {
      cancelled = true;
    };
  }, [config, getUserManager]);

  // The 9-hour limit, checked by a timer and whenever the tab comes back (timers sleep with the laptop).
  useEffect(() => {
    if (state.status !== 'signed-in') return;
    const check = () => {
      // Only a visible page acts: a page being unloaded (reload, link) fires 'hidden' and cannot navigate.
      if (document.visibilityState !== 'visible') return;
      const remaining = sessionClock.remaining();
      if (remaining !== null && remaining <= 0) expireSession();
    };
    const remaining = sessionClock.remaining() ?? SESSION_MAX_AGE_MS;
    const timer = window.setTimeout(check, Math.max(0, Math.min(remaining, 2 ** 31 - 1)) + 50);
    document.addEventListener('visibilitychange', check);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [state.status]);

  const endSession = useCallback(() => {
    userRef.current = null;
    window.sessionStorage.clear();
    setSessionExpired(false);
    setState({ status: 'anonymous', me: null, error: null });
  }, []);

  const signIn = useCallback(async () => {
    try {
      await (await getUserManager()).signinRedirect();
    } catch (error) {
      console.error('Accesso non riuscito', error);
      setState((previous) => ({ ...previous, error: SIGN_IN_FAILED }));
    }
  }, [getUserManager]);

  const signOut = useCallback(async () => {
    const idToken = userRef.current?.id_token;
    // The page keeps showing the signed-in view while the browser leaves for the provider.
    userRef.current = null;
    window.sessionStorage.clear();
    if (logoutEndpoint) {
      // Cognito: its own /logout, which ends its session too (otherwise the next 'Accedi' on a shared
      // computer signs the previous person back in).
      window.location.assign(cognitoLogoutUrl(logoutEndpoint, clientId, `${window.location.origin}/`));
      return;
    }
    try {
      const userManager = await getUserManager();
      // The local provider: the standard RP-initiated logout (end_session_endpoint, id_token_hint,
      // post_logout_redirect_uri).
      if (await userManager.metadataService.getEndSessionEndpoint().catch(() => undefined)) {
        await userManager.signoutRedirect({ id_token_hint: idToken });
        return;
      }
    } catch (error) {
      console.error('Uscita dal provider non riuscita', error);
    }
    endSession();
  }, [getUserManager, logoutEndpoint, clientId, endSession]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, sessionExpired, signIn, signOut, endSession }),
    [state, sessionExpired, signIn, signOut, endSession],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
