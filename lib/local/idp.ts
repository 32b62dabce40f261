/**
 * The local stand-in for the user pool and the municipality's SPID/CIE gateway: a real OpenID
 * Connect provider (oidc-provider) with one test identity per role. It signs RS256 JWT access
 * tokens for the API audience, carrying the same claims the API reads in the cloud: the groups and
 * attributes of the identity's user in the local user pool (lib/local/user-pool.ts), whose Cognito
 * admin API it serves on the same address.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
// oidc-provider 9 ships no type declarations (@types/oidc-provider describes v8): the few shapes
// used here are typed locally below.
// @ts-expect-error -- untyped package
import Provider, { errors } from 'oidc-provider';
// The bundled in-memory adapter, created explicitly so the provider does not warn about its
// "quick start" default. Sessions and grants are lost on restart; tokens stay valid (persisted key).
// @ts-expect-error -- untyped package
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { accessTokenClaims } from '../../functions/entry/pre-token-generation.ts';
import { ACCESS_TOKEN_TTL_SECONDS, API_AUDIENCE, OIDC_CLIENT_ID } from './config.ts';
import { fullName, identities, loginButtonName, type TestIdentity } from './identities.ts';
import { isCognitoRequest, LocalUserPool } from './user-pool.ts';

export interface IdentityProviderOptions {
  issuer: string;
  port: number;
  appUrl: string;
  dataDir: string;
}

export interface RunningIdentityProvider {
  issuer: string;
  close(): Promise<void>;
}

/** The parts of oidc-provider's Grant and Koa context this file uses. */
interface Grant {
  accountId: string;
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface ProviderContext {
  type: string;
  body: string;
  status: number;
  set(field: string, value: string): void;
  oidc: {
    provider: {
      Grant: {
        new (init: { accountId: string; clientId: string }): Grant;
        find(id: string): Promise<Grant | undefined>;
      };
    };
    client: { clientId: string };
    account?: { accountId: string };
    session: { grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    requestParamOIDCScopes: Set<string>;
    requestParamClaims: Set<string>;
    requestParamScopes: Set<string>;
    resourceServers: Record<string, { scopes: Set<string> }>;
  };
}

const SESSION_TTL_SECONDS = ACCESS_TOKEN_TTL_SECONDS;
const INTERACTION_TTL_SECONDS = 15 * 60;
const PAGE_TITLE = 'Accesso al portale — ambiente di prova';

const identityFor = (sub: string): TestIdentity | undefined => identities.find((i) => i.sub === sub);

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<RunningIdentityProvider> {
  const { issuer, port, appUrl, dataDir } = options;
  const appOrigin = new URL(appUrl).origin;
  const signingKey = await loadOrCreateSigningKey(dataDir);
  const userPool = LocalUserPool.open(dataDir);

  const provider = new Provider(issuer, {
    adapter: createMemoryAdapter(15),
    jwks: { keys: [signingKey] },
    cookies: {
      // Derived from the persisted key, so cookies signed before a restart stay valid.
      keys: [createHmac('sha256', String(signingKey.d)).update('idp cookie keys').digest('base64url')],
      // Served over plain http on localhost: oidc-provider only marks cookies Secure on https.
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_name: 'Portale dei servizi sociali',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${appUrl}/auth/callback`],
        post_logout_redirect_uris: [`${appUrl}/`],
      },
    ],
    clientAuthMethods: ['none'],
    clientBasedCORS: (_ctx: unknown, origin: string) => origin === appOrigin,
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid'],
    claims: {
      // oidc-provider's defaults, kept: acr, sid, auth_time and iss are claims, not scopes.
      acr: null,
      sid: null,
      auth_time: null,
      iss: null,
      openid: ['sub'],
      profile: ['given_name', 'family_name', 'name', 'fiscal_code'],
      email: ['email', 'email_verified'],
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const identity = identityFor(sub);
      if (!identity) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          given_name: identity.givenName,
          family_name: identity.familyName,
          name: fullName(identity),
          fiscal_code: identity.fiscalCode,
          email: identity.email,
          email_verified: true,
        }),
      };
    },
    // The claims the API reads (functions/domain/roles.ts), as the user pool puts them when it issues the token:
    // the user's groups now (`cognito:groups`, absent without any), its username, and the attributes the
    // pre-token-generation trigger adds (the same function).
    extraTokenClaims: async (_ctx: unknown, token: { accountId?: string }) => {
      const identity = token.accountId ? identityFor(token.accountId) : undefined;
      if (!identity) return undefined;
      const user = userPool.userSigningIn(identity);
      return {
        ...(user.groups.length ? { 'cognito:groups': [...user.groups] } : {}),
        username: user.username,
        ...accessTokenClaims(user.attributes),
        name: fullName(identity),
      };
    },
    // There is no consent screen: whatever the portal asks for is granted.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const { oidc } = ctx;
      const accountId = oidc.account!.accountId;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      const grant =
        existing?.accountId === accountId
          ? existing
          : new oidc.provider.Grant({ accountId, clientId: oidc.client.clientId });
      grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
      grant.addOIDCClaims([...oidc.requestParamClaims]);
      for (const [resource, server] of Object.entries(oidc.resourceServers)) {
        grant.addResourceScope(resource, [...oidc.requestParamScopes].filter((s) => server.scopes.has(s)).join(' '));
      }
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // The web app does not send `resource`: every access token is for the API.
        defaultResource: async () => API_AUDIENCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => {
          if (resource !== API_AUDIENCE) throw new errors.InvalidTarget();
          return {
            accessTokenFormat: 'jwt',
            audience: API_AUDIENCE,
            scope: 'openid profile email',
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: ProviderContext, form: string) => {
          // Sign out without asking: submit the provider's form (it carries the xsrf token) at once.
          const script = "document.getElementById('op.logoutForm').submit();";
          const autoForm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
          const content = `<h1>Uscita dal portale in corso…</h1>
    ${autoForm}
    <noscript><p>JavaScript è disattivato: conferma l’uscita con il pulsante.</p>
    <button type="submit" form="op.logoutForm">Esci dal portale</button></noscript>`;
          renderPage(ctx, 200, page(appUrl, 'Uscita dal portale', content, script));
        },
        postLogoutSuccessSource: async (ctx: ProviderContext) => {
          const content = `<h1>Uscita completata</h1>
    <p>Sei uscito dal portale. <a href="${escapeHtml(appUrl)}/">Torna al portale</a></p>`;
          renderPage(ctx, 200, page(appUrl, 'Uscita completata', content));
        },
      },
    },
    // The login page's address, served by the http server below (not by oidc-provider).
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    renderError: async (ctx: ProviderContext, out: { error?: string; error_description?: string }) => {
      const content = `<h1>Non è stato possibile completare l’accesso</h1>
    <p><a href="${escapeHtml(appUrl)}/">Torna al portale</a> e ripeti l’accesso.</p>
    <p class="detail">Dettaglio tecnico: ${escapeHtml(`${out.error ?? ''} ${out.error_description ?? ''}`)}</p>`;
      renderPage(ctx, ctx.status >= 400 ? ctx.status : 400, page(appUrl, 'Errore di accesso', content));
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
      Session: SESSION_TTL_SECONDS,
      Grant: SESSION_TTL_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
    },
  });

  const providerHandler: http.RequestListener = provider.callback();
  const server = http.createServer((req, res) => {
    if (isCognitoRequest(req)) {
      userPool.handle(req, res).catch((error: unknown) => {
        console.error('[idp] user pool request failed', error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    const { pathname } = new URL(req.url ?? '/', issuer);
    const uid = /^\/interaction\/([\w-]+)$/.exec(pathname)?.[1];
    if (!uid) return providerHandler(req, res);
    handleInteraction(provider, uid, appUrl, req, res).catch((error: unknown) => {
      // Most often the interaction cookie is missing or expired (SessionNotFound).
      const expired = error instanceof Error && error.name === 'SessionNotFound';
      if (!expired) console.error('[idp] interaction failed', error);
      const content = `<h1>${expired ? 'La sessione di accesso è scaduta' : 'Oops qualcosa è andato storto. Riprova più tardi!'}</h1>
    <p><a href="${escapeHtml(appUrl)}/">Torna al portale</a> e ripeti l’accesso.</p>`;
      if (!res.headersSent) sendPage(res, expired ? 400 : 500, page(appUrl, 'Errore di accesso', content));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, new URL(issuer).hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections (a browser, fetch) would otherwise hold the server open.
        server.closeAllConnections();
      }),
  };
}

interface InteractionApi {
  interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<{ uid: string }>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: { login: { accountId: string } },
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
}

/** The login page (GET) and the choice of an identity (POST). */
async function handleInteraction(
  provider: InteractionApi,
  uid: string,
  appUrl: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    return sendPage(res, 400, page(appUrl, 'Errore di accesso', '<h1>Richiesta di accesso non valida</h1>'));
  }
  if (req.method === 'GET') return sendPage(res, 200, page(appUrl, PAGE_TITLE, loginPage(uid)));
  if (req.method !== 'POST') {
    return sendPage(res, 405, page(appUrl, 'Errore di accesso', '<h1>Metodo non consentito</h1>'));
  }

  const sub = (await readForm(req)).get('sub') ?? '';
  if (!identityFor(sub)) {
    const content = `<h1>Identità di prova sconosciuta</h1>
    <p>L’identità scelta non esiste in questo ambiente di prova.
    <a href="/interaction/${escapeHtml(uid)}">Torna all’elenco delle identità</a></p>`;
    return sendPage(res, 400, page(appUrl, 'Identità sconosciuta', content));
  }
  // The grant is created by loadExistingGrant when the authorization resumes.
  await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
}

function loginPage(uid: string): string {
  const action = `/interaction/${escapeHtml(uid)}`;
  const items = identities
    .map(
      (identity) => `
      <li>
        <form method="post" action="${action}">
          <input type="hidden" name="sub" value="${escapeHtml(identity.sub)}">
          <button type="submit" aria-describedby="cf-${escapeHtml(identity.sub)}">${escapeHtml(loginButtonName(identity))}</button>
        </form>
        <p class="fiscal-code" id="cf-${escapeHtml(identity.sub)}">Codice fiscale: ${escapeHtml(identity.fiscalCode)}</p>
      </li>`,
    )
    .join('');
  return `<h1>${PAGE_TITLE}</h1>
    <p>In produzione i cittadini accedono con SPID o CIE tramite il gateway di autenticazione del Comune.
    In questo ambiente di prova si sceglie una delle identità di test qui sotto.</p>
    <h2>Identità di prova</h2>
    <ul class="identities">${items}
    </ul>`;
}

const STYLE = `
  body { margin: 0; background: #f5f5f5; color: #1a1a1a; line-height: 1.5;
    font-family: "Titillium Web", Geneva, Tahoma, "Segoe UI", Arial, sans-serif; }
  main { max-width: 42rem; margin: 0 auto; padding: 2rem 1rem; }
  h1 { font-size: 1.75rem; line-height: 1.25; color: #17324d; margin: 0 0 1rem; }
  h2 { font-size: 1.25rem; color: #17324d; }
  ul.identities { list-style: none; padding: 0; margin: 0; }
  ul.identities li { margin: 0 0 1.25rem; }
  form { margin: 0; }
  button { display: block; width: 100%; text-align: left; font: inherit; font-weight: 600;
    color: #fff; background: #0066cc; border: 0; border-radius: 4px; padding: 0.75rem 1rem; cursor: pointer; }
  button:hover { background: #004d99; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 3px; }
  .fiscal-code { margin: 0.25rem 0 0 1rem; color: #404040; font-size: 0.95rem; }
  .detail { color: #404040; font-size: 0.9rem; }
  a { color: #0052a3; }`;

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

interface Page {
  html: string;
  csp: string;
}

/**
 * A small self-contained page. Inline style and script are allowed by hash only; forms may post to
 * the provider and end in a redirect to the portal (after sign-in and sign-out).
 */
function page(appUrl: string, title: string, content: string, script?: string): Page {
  const html = `<!DOCTYPE html>
<html lang="it">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>${STYLE}</style>
</head>
<body>
  <main>
    ${content}
  </main>${script ? `\n  <script>${script}</script>` : ''}
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    `style-src ${cspHash(STYLE)}`,
    `script-src ${script ? cspHash(script) : "'none'"}`,
    `form-action 'self' ${new URL(appUrl).origin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

/** For pages rendered inside oidc-provider (Koa context). */
function renderPage(ctx: ProviderContext, status: number, { html, csp }: Page) {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', csp);
  ctx.body = html;
}

/** For pages rendered by the interaction handler (plain node response). */
function sendPage(res: http.ServerResponse, status: number, { html, csp }: Page) {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': csp,
  });
  res.end(html);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error('form body too large');
  }
  return new URLSearchParams(body);
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** One RSA signing key, created on first start and kept in <dataDir>/idp/jwks.json. */
async function loadOrCreateSigningKey(dataDir: string): Promise<JWK> {
  const file = path.join(dataDir, 'idp', 'jwks.json');
  try {
    const { keys } = JSON.parse(await readFile(file, 'utf8')) as { keys: JWK[] };
    return keys[0];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const key: JWK = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, JSON.stringify({ keys: [key] }, null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process started at the same moment and wrote its key first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSigningKey(dataDir);
    throw error;
  }
  return key;
}
