/**
 * Signs in to the local identity provider the way the browser does — authorization code with PKCE,
 * the login page, the identity's button — but with plain fetch, so integration tests get real tokens
 * per role.
 */
import { createHash, randomBytes } from 'node:crypto';
import { OIDC_CLIENT_ID } from '../../lib/local/config.ts';
import { identities, loginButtonName } from '../../lib/local/identities.ts';

export interface SignInOptions {
  issuer: string;
  appUrl: string;
  sub: string;
}

export interface Tokens {
  accessToken: string;
  idToken: string;
}

export interface AuthorizationCode {
  code: string;
  codeVerifier: string;
  redirectUri: string;
  tokenEndpoint: string;
}

const cache = new Map<string, Promise<Tokens>>();

/** Real tokens for a test identity, cached per (issuer, sub) within the process. */
export function signIn(options: SignInOptions): Promise<Tokens> {
  const key = `${options.issuer} ${options.sub}`;
  let tokens = cache.get(key);
  if (!tokens) {
    tokens = authorize(options).then(exchangeCode);
    tokens.catch(() => cache.delete(key));
    cache.set(key, tokens);
  }
  return tokens;
}

/** Runs the browser part of the flow and stops at the portal's callback with the code. */
export async function authorize(
  { issuer, appUrl, sub }: SignInOptions,
  browser = new CookieBrowser(),
): Promise<AuthorizationCode> {
  const identity = identities.find((i) => i.sub === sub);
  if (!identity) throw new Error(`no test identity with sub ${sub}`);

  const discovery = await fetchJson(`${issuer}/.well-known/openid-configuration`);
  const redirectUri = `${appUrl}/auth/callback`;
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorizationUrl = new URL(discovery.authorization_endpoint);
  authorizationUrl.search = new URLSearchParams({
    client_id: OIDC_CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state,
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();

  // The authorization endpoint redirects to the login page.
  const loginPage = await browser.follow(authorizationUrl.href);
  const html = await loginPage.response.text();
  const form = loginForms(html).find((f) => f.buttonText === loginButtonName(identity));
  if (!form) throw new Error(`login page has no button "${loginButtonName(identity)}"`);

  // Posting the form resumes the authorization, which redirects to the portal's callback.
  const callback = await browser.follow(
    new URL(form.action, loginPage.url).href,
    new URLSearchParams(form.fields),
    (url) => url.startsWith(redirectUri),
  );
  const params = new URL(callback.url).searchParams;
  if (params.get('state') !== state) throw new Error(`unexpected callback ${callback.url}`);
  const code = params.get('code');
  if (!code) throw new Error(`no code in callback ${callback.url}`);
  return { code, codeVerifier, redirectUri, tokenEndpoint: discovery.token_endpoint };
}

/** The portal's part: exchange the code at the token endpoint, proving the PKCE verifier. */
export async function exchangeCode({
  code,
  codeVerifier,
  redirectUri,
  tokenEndpoint,
}: AuthorizationCode): Promise<Tokens> {
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: OIDC_CLIENT_ID,
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, idToken: body.id_token };
}

export interface LoginForm {
  action: string;
  fields: Record<string, string>;
  buttonText: string;
}

/** The login page's forms, each with its hidden fields and its button's text. */
export function loginForms(html: string): LoginForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attributes, inner]) => ({
    action: decodeHtml(/\baction="([^"]*)"/.exec(attributes)?.[1] ?? ''),
    fields: Object.fromEntries(
      [...inner.matchAll(/<input\b[^>]*>/g)].map(([input]) => [
        decodeHtml(/\bname="([^"]*)"/.exec(input)?.[1] ?? ''),
        decodeHtml(/\bvalue="([^"]*)"/.exec(input)?.[1] ?? ''),
      ]),
    ),
    buttonText: decodeHtml(
      (/<button\b[^>]*>([\s\S]*?)<\/button>/.exec(inner)?.[1] ?? '')
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  }));
}

function decodeHtml(text: string) {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity]!,
  );
}

async function fetchJson(url: string) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.json();
}

/** Follows redirects by hand, keeping cookies per host as a browser would (paths ignored). */
export class CookieBrowser {
  private jars = new Map<string, Map<string, string>>();

  /**
   * Requests `url` (POSTing `form` if given) and follows redirects until a response is not a
   * redirect, or until a redirect points to a URL that `stopAt` accepts (not fetched).
   */
  async follow(url: string, form?: URLSearchParams, stopAt: (url: string) => boolean = () => false) {
    let body = form;
    for (let hops = 0; hops < 10; hops++) {
      const response = await fetch(url, {
        method: body ? 'POST' : 'GET',
        body,
        redirect: 'manual',
        headers: { cookie: this.cookieHeader(url) },
      });
      this.store(url, response.headers.getSetCookie());
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
        return { url, response };
      }
      await response.body?.cancel();
      url = new URL(location, url).href;
      body = undefined;
      if (stopAt(url)) return { url, response };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  private jar(url: string) {
    const { host } = new URL(url);
    if (!this.jars.has(host)) this.jars.set(host, new Map());
    return this.jars.get(host)!;
  }

  private cookieHeader(url: string) {
    return [...this.jar(url)].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private store(url: string, setCookies: string[]) {
    const jar = this.jar(url);
    for (const setCookie of setCookies) {
      const [pair, ...attributes] = setCookie.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attributes.some((a) => {
        const [key, val = ''] = a.trim().split('=');
        return (
          (key.toLowerCase() === 'max-age' && Number(val) <= 0) ||
          (key.toLowerCase() === 'expires' && Date.parse(val) <= Date.now())
        );
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
}
