import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, decodeJwt, generateKeyPair, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_AUDIENCE, OIDC_CLIENT_ID } from '../../lib/local/config.ts';
import { identities, loginButtonName } from '../../lib/local/identities.ts';
import { startIdentityProvider } from '../../lib/local/idp.ts';
import { freePort } from '../support/ports.ts';
import { authorize, CookieBrowser, exchangeCode, loginForms, signIn } from '../support/sign-in.ts';

let dataDir: string;
let port: number;
let issuer: string;
let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
const appUrl = 'http://localhost:39999';

const start = () => startIdentityProvider({ issuer, port, appUrl, dataDir });
const fetchJwks = async () => createLocalJWKSet((await (await fetch(`${issuer}/jwks`)).json()) as JSONWebKeySet);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'idp-test-'));
  port = await freePort();
  issuer = `http://localhost:${port}`;
  idp = await start();
});

afterAll(async () => {
  await idp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('local identity provider', () => {
  it('publishes a discovery document for the code flow with PKCE', async () => {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = await response.json();
    expect(discovery).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      end_session_endpoint: `${issuer}/session/end`,
    });
    expect(discovery.code_challenge_methods_supported).toContain('S256');
  });

  it('lets only the web app call the token endpoint from the browser (CORS)', async () => {
    const tokenRequest = (origin: string) =>
      fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { origin },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: OIDC_CLIENT_ID,
          code: 'x',
          code_verifier: 'x',
        }),
      });
    const fromPortal = await tokenRequest(appUrl);
    expect(fromPortal.headers.get('access-control-allow-origin')).toBe(appUrl);
    expect(await fromPortal.json()).toMatchObject({ error: 'invalid_grant' });

    const fromElsewhere = await tokenRequest('http://evil.example');
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
    expect(await fromElsewhere.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('shows an Italian login page with one button per test identity', async () => {
    const url = new URL(`${issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: OIDC_CLIENT_ID,
      redirect_uri: `${appUrl}/auth/callback`,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const { response } = await new CookieBrowser().follow(url.href);
    const html = await response.text();

    expect(html).toContain('<html lang="it">');
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('SPID');
    const buttons = loginForms(html).map((form) => form.buttonText);
    expect(buttons).toEqual(identities.map(loginButtonName));
    expect(buttons).toHaveLength(6);
  });

  it('answers an unknown identity with an Italian 400 page', async () => {
    const browser = new CookieBrowser();
    const url = new URL(`${issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: OIDC_CLIENT_ID,
      redirect_uri: `${appUrl}/auth/callback`,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const loginPage = await browser.follow(url.href);
    const [form] = loginForms(await loginPage.response.text());
    await expect(
      browser.follow(new URL(form.action, loginPage.url).href, new URLSearchParams({ sub: 'mario.nessuno' })),
    ).rejects.toThrow(/: 400 [\s\S]*Identità di prova sconosciuta/);
  });

  describe.each(identities)('signing in as $sub', (identity) => {
    it('gives an access token for the API with the claims of the identity’s user in the local user pool', async () => {
      const { accessToken, idToken } = await signIn({ issuer, appUrl, sub: identity.sub });
      const { payload, protectedHeader } = await jwtVerify(accessToken, await fetchJwks(), {
        issuer,
        audience: API_AUDIENCE,
      });
      expect(protectedHeader.alg).toBe('RS256');
      expect(payload).toMatchObject({
        sub: identity.sub,
        username: `SpidCie_${identity.sub}`,
        fiscal_code: identity.fiscalCode,
        given_name: identity.givenName,
        family_name: identity.familyName,
        name: `${identity.givenName} ${identity.familyName}`,
        email: identity.email,
      });
      // As Cognito: the groups in `cognito:groups`, no claim at all without a group.
      if (identity.groups.length) expect(payload['cognito:groups']).toEqual(identity.groups);
      else expect(payload).not.toHaveProperty('cognito:groups');
      if (identity.workingEntityId) expect(payload.working_entity_id).toBe(identity.workingEntityId);
      else expect(payload).not.toHaveProperty('working_entity_id');
      expect(payload.exp! - payload.iat!).toBe(9 * 60 * 60);

      const idClaims = (await jwtVerify(idToken, await fetchJwks(), { issuer, audience: OIDC_CLIENT_ID })).payload;
      expect(idClaims).toMatchObject({ sub: identity.sub, fiscal_code: identity.fiscalCode, email: identity.email });
    });
  });

  it('refuses an authorization request without a PKCE challenge', async () => {
    const url = new URL(`${issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: OIDC_CLIENT_ID,
      redirect_uri: `${appUrl}/auth/callback`,
      response_type: 'code',
      scope: 'openid',
    }).toString();
    const { url: callback } = await new CookieBrowser().follow(url.href, undefined, (u) => u.startsWith(appUrl));
    expect(new URL(callback).searchParams.get('error')).toBe('invalid_request');
    expect(new URL(callback).searchParams.has('code')).toBe(false);
  });

  it('refuses to exchange a code without the PKCE verifier, or with a wrong one', async () => {
    const options = { issuer, appUrl, sub: 'maria.rossi' };
    const withoutVerifier = await authorize(options);
    const response = await fetch(withoutVerifier.tokenEndpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: OIDC_CLIENT_ID,
        code: withoutVerifier.code,
        redirect_uri: withoutVerifier.redirectUri,
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });

    const withWrongVerifier = await authorize(options);
    await expect(exchangeCode({ ...withWrongVerifier, codeVerifier: 'a'.repeat(43) })).rejects.toThrow(
      /400.*invalid_grant/,
    );

    // The same code with the right verifier still works: it was the verifier that failed.
    await expect(exchangeCode(withWrongVerifier)).resolves.toHaveProperty('accessToken');
  });

  it('rejects a token signed by another key', async () => {
    const { accessToken } = await signIn({ issuer, appUrl, sub: 'laura.bianchi' });
    const genuine = decodeJwt(accessToken);
    const { kid } = JSON.parse(Buffer.from(accessToken.split('.')[0], 'base64url').toString());
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...genuine, role: ['OPERATOR', 'DELEGATE'] })
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(privateKey);

    await expect(jwtVerify(forged, await fetchJwks(), { issuer, audience: API_AUDIENCE })).rejects.toThrow(
      /signature verification failed/,
    );
  });

  it('signs out through the end-session endpoint back to the portal', async () => {
    const browser = new CookieBrowser();
    const { idToken } = await exchangeCode(await authorize({ issuer, appUrl, sub: 'giuseppe.verdi' }, browser));
    const endSession = new URL(`${issuer}/session/end`);
    endSession.search = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${appUrl}/`,
    }).toString();
    const logoutPage = await browser.follow(endSession.href);
    const html = await logoutPage.response.text();
    expect(html).toContain('<html lang="it">');
    expect(html).toContain('<script>');

    // What the page's script does: submit the form, which then redirects to the portal.
    const [form] = loginForms(html);
    expect(form.fields).toMatchObject({ logout: 'yes', xsrf: expect.any(String) });
    const done = await browser.follow(form.action, new URLSearchParams(form.fields), (url) => url.startsWith(appUrl));
    expect(done.url).toBe(`${appUrl}/`);
  });

  it('keeps its signing key across restarts, so earlier tokens stay valid', async () => {
    const { accessToken } = await signIn({ issuer, appUrl, sub: 'paolo.esposito' });
    await idp.close();
    idp = await start();

    const { payload } = await jwtVerify(accessToken, await fetchJwks(), { issuer, audience: API_AUDIENCE });
    expect(payload['cognito:groups']).toEqual(['OPERATOR', 'DELEGATE']);
    // And signing in still works after the restart.
    await expect(exchangeCode(await authorize({ issuer, appUrl, sub: 'paolo.esposito' }))).resolves.toHaveProperty(
      'accessToken',
    );
  });
});
