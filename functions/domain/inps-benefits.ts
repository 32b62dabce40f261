/**
 * The XSD's PrestazioneDaErogareType (ConsultazioneISEE_v2.8_PDND.xsd): the benefit an ISEE query is for, with
 * the names INPS gives them (as municipal clients list them: lsantalu/OpenMSP `inps.py`). A service stores its
 * own code (services.ts); its queries to INPS send it. The regex in inps.ts is the same list.
 */
export const inpsBenefits = [
  ['A1.01', 'Assegno per il nucleo familiare erogato dai Comuni'],
  ['A1.02', 'Assegno di maternità erogato dai Comuni'],
  ['A1.03', 'Carta acquisti'],
  ['A1.04', 'Contributi economici a integrazione del reddito familiare'],
  ['A1.05', 'Contributi economici per alloggio'],
  ['A1.06', 'Buoni spesa o buoni pasto'],
  ['A1.07', 'Contributi e integrazioni a rette per asili nido'],
  ['A1.08', 'Contributi e integrazioni a rette per servizi integrativi o innovativi per la prima infanzia'],
  ['A1.09', 'Contributi economici per i servizi scolastici'],
  ['A1.10', 'Contributi economici per cure o prestazioni sociali a rilevanza sanitaria'],
  ['A1.11', 'Assegnazioni economiche per il sostegno della domiciliarità e dell’autonomia personale'],
  ['A1.12', 'Contributi e integrazioni a rette per centri diurni'],
  ['A1.13', 'Contributi e integrazioni a rette per servizi semi-residenziali'],
  ['A1.14', 'Contributi e integrazioni a rette per servizi residenziali'],
  ['A1.15', 'Contributi per servizi alla persona'],
  ['A1.16', 'Contributi economici per servizio trasporto e mobilità'],
  ['A1.17', 'Contributi economici a titolo di prestito o prestito d’onore'],
  ['A1.18', 'Contributi economici per l’inserimento lavorativo'],
  ['A1.19', 'Borse di studio'],
  ['A1.20', 'Buono vacanze'],
  ['A2.01', 'Mensa sociale'],
  ['A2.02', 'Sostegno socio-educativo territoriale o domiciliare'],
  ['A2.03', 'Prestazioni del diritto allo studio universitario'],
  ['A2.04', 'Agevolazioni per tasse universitarie'],
  ['A2.05', 'Agevolazioni per i servizi di pubblica utilità (telefono, luce, gas)'],
  ['A2.06', 'Agevolazioni tributarie comunali'],
  ['A2.07', 'Assistenza domiciliare socio-assistenziale'],
  ['A2.08', 'Assistenza domiciliare integrata con servizi sanitari (ADI)'],
  ['A2.09', 'Supporto all’inserimento lavorativo'],
  ['A2.10', 'Servizi integrativi per la prima infanzia'],
  ['A2.11', 'Sostegno socio-educativo scolastico'],
  ['A2.12', 'Mensa scolastica'],
  ['A3.01', 'Strutture semiresidenziali'],
  ['A3.02', 'Strutture residenziali'],
  ['A3.03', 'Asilo nido'],
  ['Z9.99', 'Altro'],
] as const;

export type InpsBenefitCode = (typeof inpsBenefits)[number][0];
export const inpsBenefitCodes = inpsBenefits.map(([code]) => code) as [InpsBenefitCode, ...InpsBenefitCode[]];
