import { runtimeConfig } from './runtime-config';

/** The message of a failure the portal cannot explain (design §3). */
export const GENERIC_ERROR = 'Oops qualcosa è andato storto. Riprova più tardi!';

/** A failed API call, with the Italian message to show and, for forms, each field's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
    /** Whether the message is the server's own (a problem's detail), not the body text or a fallback. */
    readonly fromServer = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to tell the user about a failure: the API's own message, else the generic one. */
export const errorMessage = (failure: unknown): string =>
  failure instanceof ApiError ? failure.message : GENERIC_ERROR;

/** A failure as an ApiError (an unexpected one carries the generic message), for forms that read its field errors. */
export const toApiError = (failure: unknown): ApiError =>
  failure instanceof ApiError ? failure : new ApiError(0, GENERIC_ERROR);

type TokenProvider = () => string | null;
let currentToken: TokenProvider = () => null;
const unauthorizedListeners = new Set<() => void>();

/** The auth module tells the client how to read the current access token. */
export function setAccessTokenProvider(provider: TokenProvider) {
  currentToken = provider;
}

/** Called when the API rejects the token (401): the shell shows the 'SESSIONE SCADUTA' modal. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

async function request<T>(method: string, path: string, body?: unknown, withToken?: string): Promise<T> {
  const token = withToken ?? currentToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${runtimeConfig().apiBaseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, GENERIC_ERROR);
  }
  if (response.status === 401 && token) unauthorizedListeners.forEach((listener) => listener());
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    // The server's message is preferred, then the body text, then the generic message (spec part 2 §8).
    const detail =
      (data as { detail?: string; message?: string } | undefined)?.detail ?? (data as { message?: string })?.message;
    throw new ApiError(
      response.status,
      detail ?? (text || GENERIC_ERROR),
      (data as { errors?: Record<string, string> })?.errors ?? {},
      detail !== undefined,
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Query string from an object, skipping empty values. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const api = {
  /** `token`: a given access token instead of the current one (the stored session's, at start-up). */
  get: <T>(path: string, token?: string) => request<T>('GET', path, undefined, token),
  post: <T>(path: string, body: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  /** How many items match in all, for lists that count them ('Mostro N su M'). */
  total?: number;
}

/**
 * POST with a JSON body through XMLHttpRequest, which (unlike fetch) reports the upload's progress:
 * `onUploadProgress(fraction)` runs from 0 to 1 while the body is sent, then the server works on it.
 * Same token, same errors (ApiError with the server's Italian detail) as the other calls.
 */
export function postWithUploadProgress<T>(
  path: string,
  body: unknown,
  onUploadProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const token = currentToken();
    xhr.open('POST', `${runtimeConfig().apiBaseUrl}${path}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onUploadProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => onUploadProgress(1);
    xhr.onerror = () => reject(new ApiError(0, GENERIC_ERROR));
    xhr.onload = () => {
      if (xhr.status === 401 && token) unauthorizedListeners.forEach((listener) => listener());
      const text = xhr.responseText;
      const data = text ? safeJson(text) : undefined;
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as T);
      const detail =
        (data as { detail?: string; message?: string } | undefined)?.detail ?? (data as { message?: string })?.message;
      reject(
        new ApiError(
          xhr.status,
          detail ?? (text || GENERIC_ERROR),
          (data as { errors?: Record<string, string> })?.errors ?? {},
          detail !== undefined,
        ),
      );
    };
    xhr.send(JSON.stringify(body));
  });
}
