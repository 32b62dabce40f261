/**
 * A client of an outside service (IO, MyPay) built from settings a warm function may see change: a rotated
 * secret reaches process.env within 5 minutes (functions/adapters/secrets.ts), and the client must then use it.
 * The settings are read on every use; the client is kept while they stay the same and rebuilt when they change.
 * A missing setting throws at the first use, not at the cold start.
 */
export function clientFromSettings<Settings, Client>(
  read: () => Settings,
  build: (settings: Settings) => Client,
): () => Client {
  let built: { settings: string; client: Client } | undefined;
  return () => {
    const settings = read();
    const key = JSON.stringify(settings);
    if (built?.settings !== key) built = { settings: key, client: build(settings) };
    return built.client;
  };
}
