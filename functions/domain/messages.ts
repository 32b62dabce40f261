/** Every user-visible text the API sends, in Italian. Quoted from the spec where it has one. */
export const messages = {
  required: 'Il campo non può essere vuoto!',
  generic: 'Oops qualcosa è andato storto. Riprova più tardi!',
  invalidJson: 'Il corpo della richiesta non è un JSON valido.',
  payloadTooLarge: 'La richiesta è troppo grande: il limite è di {limit}.',
  unauthorized: 'Sessione scaduta o non valida: esegui nuovamente il login.',
  forbidden: 'Non sei autorizzato a eseguire questa operazione.',
  notFound: 'La risorsa richiesta non esiste.',
  invalidCursor: 'Il parametro di paginazione non è valido.',
  invalidRequest: 'Alcuni dati non sono validi: correggi i campi segnalati.',
  tooLong: 'Il campo può contenere al massimo {max} caratteri.',
  /** A save made on a copy another operator changed since it was read (tickets, debt positions). */
  staleRecord: 'Il record è stato modificato da un altro operatore: ricarica la pagina.',
  band: {
    notFound: 'La fascia ISEE selezionata non esiste.',
    inUse: 'La fascia ISEE selezionata è inclusa in un bando in corso.',
    amount: 'Inserisci un importo valido, con al massimo due decimali.',
    negative: 'Il valore non può essere negativo.',
    percent: 'La percentuale deve essere compresa tra 0 e 100.',
    minAboveMax: 'Il valore minimo non può superare il valore massimo.',
  },
  service: {
    notFound: 'Il servizio selezionato non esiste.',
    hasCalls: 'Il servizio non può essere eliminato perché ha dei bandi associati.',
  },
  call: {
    notFound: 'Il bando selezionato non è presente.',
    notOpen: 'Il bando selezionato non è aperto alle iscrizioni.',
    hasSubscriptions: 'Il bando non può essere eliminato perché ha delle iscrizioni.',
    year: 'Inserisci un anno valido di quattro cifre.',
    state: 'Lo stato del bando non è valido.',
    fileNotFound: 'L’allegato selezionato non esiste.',
    changed: 'Il bando è stato modificato nel frattempo: ricarica la pagina e riprova.',
    transition: 'Un bando {from} non può passare allo stato {to}.',
  },
  subscription: {
    alreadySubscribed: 'Hai già inviato una richiesta di iscrizione a questo bando.',
    notFound: 'L’iscrizione selezionata non è presente.',
    noValidatedIsee:
      'Non è possibile iscriversi ai bandi finché il Comune non ha validato il tuo ISEE: caricalo dalla pagina Caricamento ISEE.',
    transition: 'Un’iscrizione in stato {from} non può passare allo stato {to}.',
  },
  configuration: {
    azione: 'L’azione deve essere I (inserimento), M (modifica) o A (annullamento).',
    tipoIdentificativoUnivoco: 'Il tipo identificativo deve essere F (persona fisica) o G (persona giuridica).',
    incomplete:
      'Configurazione MyPay incompleta: compila tutti i campi nella pagina Configurazione prima di generare le posizioni ({fields}).',
  },
  positions: {
    month: 'Il mese deve essere un numero da 1 a 12.',
    year: 'Inserisci un anno valido di quattro cifre.',
    noIsee: 'ISEE scaduto o mancante',
    noBand: 'Il valore ISEE non rientra in nessuna fascia del bando',
    cancelledFinal: 'Posizione annullata: non può essere riaperta',
    notApproved: 'Iscrizione non più approvata: posizione lasciata invariata',
    csv: 'Riga {row}, campo {field}: {reason}',
    csvTooLong: 'supera i {max} caratteri',
    csvRequired: 'è obbligatorio',
    csvFormat: 'non ha il formato richiesto',
    iuf: 'L’identificativo del flusso può contenere solo lettere, cifre e trattino basso.',
    zipVersion: 'La versione del tracciato deve essere tra 1_0 e 1_4.',
    exportRunning:
      'È in corso un invio a MyPay per questo bando: le posizioni debitorie non si possono ricalcolare finché non termina.',
    // Payment edit modal (operator-admin §5, §9).
    descriptionRequired: 'Il campo descrizione è obbligatorio!',
    descriptionTooLong: 'Il campo Descrizione deve essere massimo 300 caratteri!',
    amount: 'L’importo deve essere un numero maggiore o uguale a 0, con al massimo due decimali.',
    // 'Chiudi riconciliazione' (issue 21).
    reconciliationNoteRequired: 'Il campo nota è obbligatorio!',
    reconciliationNoteTooLong: 'Il campo Nota deve essere massimo 500 caratteri!',
  },
  payment: {
    notFound: 'Il pagamento selezionato non esiste.',
    noPayments: "Non ci sono pagamenti per l'utente selezionato.",
    fiscalCode: 'Il codice fiscale è errato!',
    returnUrl: 'L’indirizzo di ritorno dal pagamento non è valido.',
    sessionNotFound: 'La sessione di pagamento non esiste.',
  },
} as const;

/**
 * The payment edit and 'Sincronizza' answers of the use cases (operator-admin §2, §5). Apart from
 * `messages`, which every bundle carries with the schemas: only the payments and jobs functions need these.
 */
export const positionOpsMessages = {
  notFound: 'Posizione debitoria non trovata.',
  final: 'La posizione debitoria è già pagata o annullata: non si può modificare.',
  changed: 'La posizione debitoria è stata modificata nel frattempo: ricarica e riprova.',
  exportRunningEdit:
    'È in corso un invio a MyPay per questo bando: la posizione debitoria non si può modificare finché non termina.',
  /** Issue 21: a second operator saving on a stale copy. */
  staleCopy: 'Il record è stato modificato da un altro operatore: ricarica la pagina.',
  notToReconcile:
    'Il pagamento non è da riconciliare (la riconciliazione è già stata chiusa o non è mai stata aperta): nulla è stato modificato.',
  checkoutLive: 'Il cittadino sta pagando questa posizione su MyPay: riprova tra qualche minuto (al massimo 30).',
  checkoutLiveCall:
    'Un cittadino sta pagando una posizione di questo bando su MyPay: riprova tra qualche minuto (al massimo 30).',
  checkoutLiveMonth:
    'Un cittadino sta pagando una posizione di questo mese su MyPay: riprova tra qualche minuto (al massimo 30).',
  archived: 'Il bando è archiviato: non si generano più posizioni debitorie.',
  syncRunning: 'È già in corso un ricalcolo delle posizioni debitorie per questo bando.',
  syncFailed: 'Il ricalcolo delle posizioni debitorie non è riuscito.',
  generationRunning: 'È già in corso la generazione delle posizioni debitorie per questo bando: attendi che termini.',
  generationFailed: 'La generazione delle posizioni debitorie non è riuscita.',
  csvRunning: 'È già in corso la generazione del CSV per questo bando: attendi che termini.',
  csvFailed: 'La generazione del CSV non è riuscita.',
} as const;

/**
 * What the citizen's payment and the reporting answer (functions/user-positions, functions/reporting):
 * apart from `messages` so that only those two functions carry them (the OpenAPI function bundles every
 * schema's messages, and is near its 150 KB).
 */
export const paymentOutcomeMessages = {
  alreadyPaid: 'Il pagamento risulta già effettuato.',
  cancelled: 'Il pagamento è stato annullato e non può essere pagato.',
  paid: 'Pagamento avvenuto con successo: la posizione risulta pagata.',
  paidBefore: 'Il pagamento era già stato registrato: la posizione risulta pagata.',
  failed: 'Il pagamento non è andato a buon fine: la posizione resta da pagare.',
  cancelledByCitizen: 'Il pagamento è stato annullato: la posizione resta da pagare.',
  pending: 'Il pagamento è ancora in corso: ricarica la pagina tra qualche minuto per vederne l’esito.',
  mismatch: 'MyPay ha registrato un pagamento diverso da quello richiesto: contatta il Comune.',
  /** The payment is recorded, and an operator will look at it (another amount, a cancelled position, paid twice). */
  paidToReconcile: 'Pagamento registrato: il Comune verificherà l’importo pagato e ti contatterà se necessario.',
  expired: 'La sessione di pagamento è scaduta: la posizione resta da pagare e puoi pagarla di nuovo.',
  unavailable: 'Il servizio di pagamento non è al momento raggiungibile. Riprova più tardi.',
  notIssued: 'L’avviso di pagamento non è ancora disponibile su MyPay: potrai pagare quando il Comune lo avrà emesso.',
  positionChanged: 'La posizione è stata aggiornata nel frattempo: ricarica la pagina.',
  notOpenOnMyPay:
    'MyPay non riporta questa posizione come da pagare: potrebbe essere già stata pagata. Ricarica la pagina tra qualche minuto.',
  /** paaSILChiediPagati cannot say yet (modello unico: pagoPA's receipt has not reached MyPay). */
  verifying:
    'Pagamento in verifica: l’esito non è ancora arrivato da pagoPA. Se hai pagato non pagare di nuovo: il pagamento sarà registrato appena MyPay lo riceve. Ricarica la pagina più tardi.',
  /** 'Paga' while the last checkout is 'in verifica': what the citizen can do instead of paying again. */
  verifyingNoPay:
    'Pagamento in verifica: l’esito del pagamento avviato non è ancora arrivato da pagoPA. Se hai pagato non pagare di nuovo: il pagamento sarà registrato appena MyPay lo riceve. Se non hai completato il pagamento potrai pagare di nuovo dal {when}.',
  /** Before 'Paga': what MyPay's landing would refuse, and what the office must fix (checkoutBlockers). */
  blocked: 'Il pagamento online non è al momento possibile: {reasons}. Contatta l’ufficio del Comune.',
  blockedCap:
    'il CAP «{cap}» registrato nei tuoi dati non è un CAP italiano di 5 cifre, e MyPay non lo accetta: l’ufficio deve correggerlo nell’anagrafica e inviare di nuovo la posizione a MyPay',
  blockedPastDue:
    'la scadenza della posizione è passata e MyPay non accetta pagamenti scaduti per questo tipo di dovuto: l’ufficio deve aggiornare la scadenza e inviare di nuovo la posizione a MyPay',
  reportingInProgress: 'La rendicontazione è in corso',
  reportingDone: 'Rendicontazione completata: {marked}{toReconcile}, {alreadyPaid}, {unmatched}.',
  reportingRunning: 'È già in corso una rendicontazione per questo bando: attendi che termini.',
  reportingFailed: 'La rendicontazione non è riuscita: riprova più tardi.',
} as const;

/**
 * The same answers on pagoPA GPD (issue 37), where the portal's positions are pagoPA's own notices and a payment is
 * known from pagoPA's receipt; and the cart of several notices paid at once (Checkout, up to five).
 */
export const gpdPaymentMessages = {
  settingsIncomplete:
    'Impostazioni pagoPA dell’ente incomplete: {problems}. Si indicano nelle impostazioni della piattaforma di pagamento (gpdOrganizationFiscalCode, gpdSegregationCode, gpdIban, gpdTaxonomyCode).',
  mismatch: 'pagoPA ha registrato un pagamento diverso da quello richiesto: contatta il Comune.',
  notIssued: 'L’avviso di pagamento non è ancora disponibile su pagoPA: potrai pagare quando il Comune lo avrà emesso.',
  notOpen:
    'pagoPA non riporta questo avviso come da pagare: potrebbe essere già stato pagato. Ricarica la pagina tra qualche minuto.',
  verifying:
    'Pagamento in verifica: la ricevuta di pagoPA non è ancora arrivata. Se hai pagato non pagare di nuovo: il pagamento sarà registrato appena arriva la ricevuta. Ricarica la pagina più tardi.',
  verifyingNoPay:
    'Pagamento in verifica: la ricevuta di pagoPA del pagamento avviato non è ancora arrivata. Se hai pagato non pagare di nuovo: il pagamento sarà registrato appena arriva la ricevuta. Se non hai completato il pagamento potrai pagare di nuovo dal {when}.',
  cartEmpty: 'Seleziona almeno un avviso da pagare.',
  cartTooMany: 'Puoi pagare al massimo {max} avvisi alla volta: selezionane di meno.',
  /** MyPay pays one position per checkout. */
  cartOne: 'Puoi pagare un avviso alla volta.',
  cartRepeated: 'Lo stesso avviso è stato selezionato più volte.',
  cartInCorso:
    'Uno degli avvisi selezionati ha già un pagamento in corso: riprendi quel pagamento o attendi che termini.',
} as const;

/** The counts of reportingDone, singular and plural (apart: only the reporting function says them, not the web's first load). */
export const reportingCountWords = {
  marked: ['posizione segnata come pagata', 'posizioni segnate come pagate'],
  alreadyPaid: ['già pagata', 'già pagate'],
  unmatched: ['non riconosciuta', 'non riconosciute'],
} as const;

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}

// Pure: a function that never shows a count does not carry it.
const countFormat = /* @__PURE__ */ new Intl.NumberFormat('it-IT', {
  useGrouping: 'always',
} as Intl.NumberFormatOptions);
/** A count with the thousands dot, as the amounts have it ('1.234'). */
export const formatCount = (count: number): string => countFormat.format(count);

/** A count as it is said: '1 posizione', '0 posizioni', '2 posizioni' (Italian takes the plural for zero). */
export const counted = (
  count: number,
  [one, many]: readonly [string, string],
  format: (n: number) => string = String,
): string => `${format(count)} ${count === 1 ? one : many}`;

/**
 * The notices' answers (e-mail and IO, one position or a whole flow): apart from `messages` so that only the
 * notices function (and the export's Collect step) carry them.
 */
export const noticeMessages = {
  positionNotFound: 'La posizione debitoria selezionata non esiste.',
  notExported: 'La posizione non ha ancora un avviso di pagamento: inviala prima a MyPay.',
  paid: 'La posizione risulta già pagata: l’avviso non viene inviato.',
  cancelled: 'La posizione è annullata: l’avviso non viene inviato.',
  noEmail: 'Il cittadino non ha un indirizzo e-mail: l’avviso non può essere inviato per e-mail.',
  noPdf: 'Il PDF dell’avviso non è disponibile: rielabora il flusso che ha inviato la posizione a MyPay.',
  mailFailed: 'L’invio dell’e-mail non è riuscito: riprova più tardi.',
  ioNoProfile: 'Il cittadino non ha attivato l’app IO: il messaggio non può essere inviato.',
  ioSenderNotAllowed:
    'Il cittadino ha disattivato i messaggi del Comune sull’app IO: il messaggio non è stato inviato.',
  ioUnavailable: 'L’app IO non risponde: riprova più tardi.',
  ioBusy:
    'L’app IO ha ricevuto troppe richieste dal Comune e chiede di attendere {seconds} secondi: riprova tra poco. Il messaggio non è stato inviato.',
  ioRefused: 'L’app IO ha rifiutato il messaggio: {reason}',
  ioAmountNotAllowed:
    'L’app IO non accetta l’importo di {amount}: il servizio del Comune può chiedere al massimo {max}. Il servizio va abilitato ai pagamenti (o il suo limite alzato) nell’Area Riservata di IO; il messaggio non è stato inviato.',
  ioRecipientNotAuthorized:
    'L’app IO non permette al servizio del Comune di scrivere a questo cittadino: la chiave del servizio è di prova (solo i destinatari di test autorizzati) o la scheda del servizio su IO è incompleta. Va sistemato nell’Area Riservata di IO; il messaggio non è stato inviato.',
  ioForbidden:
    'L’app IO rifiuta le richieste del portale: la chiave del servizio non ha i permessi necessari o l’indirizzo IP del portale non è tra quelli autorizzati per il servizio. Va sistemato nell’Area Riservata di IO; il messaggio non è stato inviato.',
  ioUnauthorized:
    'L’app IO non riconosce la chiave del servizio del Comune: va aggiornata nella configurazione del portale (chiedi all’amministratore di sistema). Il messaggio non è stato inviato.',
  ioRejected:
    'L’app IO ha accettato il messaggio ma poi lo ha rifiutato: il cittadino non ha un profilo IO attivo o ha bloccato i messaggi del Comune. Il messaggio non è stato recapitato.',
  ioFailed:
    'L’app IO non è riuscita a recapitare il messaggio (errore definitivo di IO): invia l’avviso per e-mail o riprova più tardi.',
  ioNoMessage: 'Per questa posizione non è stato inviato alcun messaggio su IO: non c’è uno stato da verificare.',
  /** POST /messages got no clear answer: IO may have created the message (no idempotency key), so it is never resent by itself. */
  ioUnconfirmed:
    'Invio non confermato: l’app IO non ha risposto in tempo e il messaggio potrebbe essere arrivato al cittadino. Non viene inviato di nuovo automaticamente: verifica con il cittadino prima di un secondo invio.',
  /** A second send of a notice already sent (or maybe sent) to IO needs the operator's confirmation. */
  ioAlreadySent:
    'L’avviso è già stato inviato su IO il {date}: il cittadino riceverebbe un secondo messaggio. Conferma il nuovo invio per procedere.',
  ioAlreadySentUnconfirmed:
    'Un invio su IO del {date} non è stato confermato e il messaggio potrebbe essere arrivato: il cittadino riceverebbe un secondo messaggio. Conferma il nuovo invio per procedere.',
  ioNotFound:
    'L’app IO ha risposto che l’indirizzo chiamato non esiste: l’indirizzo dell’API di IO nella configurazione del portale (IO_BASE_URL) va verificato (chiedi all’amministratore di sistema). Il messaggio non è stato inviato.',
  ioInvalidNotice:
    'Il numero avviso {nav} non è valido per l’app IO (18 cifre, la prima 0, 1, 2 o 3): il messaggio non è stato inviato.',
  flowNotCollected: 'Il flusso non ha ancora gli esiti di MyPay: non ci sono avvisi da inviare.',
  flowDone: 'Rielaborazione avvenuta con successo.',
  flowInProgress: 'Invio delle e-mail in corso: {sent} finora.',
  flowSent: ['inviata', 'inviate'],
  flowEmailFailed: 'L’invio delle e-mail del flusso non è riuscito: riprova.',
} as const;

/**
 * The notice refusals whose advice depends on the platform: on pagoPA GPD the portal prints the notice itself, so
 * there is no MyPay flow to process again (domain/notices.ts noticeWords).
 */
export const gpdNoticeMessages = {
  notExported: 'La posizione non ha ancora un avviso di pagamento: inviala prima a pagoPA.',
  noPdf:
    'L’avviso pagoPA non può essere generato: la posizione non ha più un codice avviso (potrebbe essere stata modificata nel frattempo). Ricarica la pagina e riprova.',
} as const;

/** 'Avviso PDF' (the citizen's payments, the operators' view of a citizen's positions): why a notice is not given. */
export const noticeDownloadMessages = {
  notExported: 'L’avviso di pagamento non è ancora disponibile: la posizione non è ancora stata inviata a MyPay.',
  cancelled: 'La posizione è annullata: il suo avviso di pagamento non è più valido.',
  paid: 'La posizione risulta già pagata: l’avviso di pagamento non serve più.',
  noPdf: 'Il PDF dell’avviso non è ancora disponibile: riprova più tardi.',
} as const;
