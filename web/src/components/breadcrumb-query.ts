import { useEffect, useSyncExternalStore } from 'react';

/**
 * What a page knows that the breadcrumbs above it need: the query values of the pages on its trail. A ticket
 * (/lista_utenti/dati_utente/ticket/dettaglio?id=7) knows its citizen, so 'Dati utente' links to
 * ?citizen=<id> and 'Ticket utente' to ?userId=<id>. Keyed by the trail page's query parameter (the `query`
 * of its route rule); held while the page is shown.
 */
let known: Readonly<Record<string, string>> = {};
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Called by a page with the values it knows (a missing or empty one is left out). */
export function useBreadcrumbQuery(values: Record<string, string | null | undefined>) {
  const key = JSON.stringify(
    Object.entries(values).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
  useEffect(() => {
    known = Object.fromEntries(JSON.parse(key) as Array<[string, string]>);
    changed();
    return () => {
      known = {};
      changed();
    };
  }, [key]);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The values the page shown published (read by the breadcrumbs). */
export const useBreadcrumbQueryValues = () =>
  useSyncExternalStore(
    subscribe,
    () => known,
    () => known,
  );
