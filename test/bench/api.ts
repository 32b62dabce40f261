/**
 * A benchmark's client of the local stack's API, signed in with `accessToken`: the JSON answer, an Error naming
 * the route on a status other than 2xx. A read (GET) that meets a kept-alive socket the busy server has just
 * closed (ECONNRESET: fetch throws) is sent again, up to three times.
 */
export function benchApi(appUrl: string, accessToken: string) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const send = () =>
      fetch(`${appUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let response: Response;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await send();
        break;
      } catch (error) {
        if (method !== 'GET' || attempt >= 3) throw error;
      }
    }
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}
