import { inject } from './stack-context.ts';
import { identities } from '../../lib/local/identities.ts';
import { signIn } from './sign-in.ts';

export type Persona = 'anonymous' | 'citizen' | 'newCitizen' | 'operator' | 'delegate' | 'entityOperator';

/** Which test identity stands for each persona (lib/local/identities.ts). */
export const personaSub: Record<Exclude<Persona, 'anonymous'>, string> = {
  citizen: identities[0].sub,
  newCitizen: identities[1].sub,
  operator: identities[2].sub,
  delegate: identities[3].sub,
  entityOperator: identities[4].sub,
};

export const personas = [
  'anonymous',
  'citizen',
  'newCitizen',
  'operator',
  'delegate',
  'entityOperator',
] as const satisfies readonly Persona[];

/** A real access token from the local OIDC provider, through the code + PKCE flow. */
export async function tokenFor(persona: Persona): Promise<string | undefined> {
  if (persona === 'anonymous') return undefined;
  const { accessToken } = await signIn({
    issuer: inject('issuer'),
    appUrl: inject('appUrl'),
    sub: personaSub[persona],
  });
  return accessToken;
}

export interface ApiResponse {
  status: number;
  json: any;
  headers: Headers;
}

/** Sends one request to the local API, as a browser would. */
export async function request(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${inject('appUrl')}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: response.status, json, headers: response.headers };
}

/** Shorthand for a persona's requests. */
export async function as(persona: Persona) {
  const token = await tokenFor(persona);
  return {
    token,
    get: (path: string) => request('GET', path, { token }),
    post: (path: string, body: unknown) => request('POST', path, { token, body }),
    put: (path: string, body: unknown) => request('PUT', path, { token, body }),
    delete: (path: string) => request('DELETE', path, { token }),
  };
}
