/**
 * The portal's business metrics: what the use cases count as they do the work (the `BusinessMetrics` port,
 * functions/adapters/ports/metrics.ts), published with Powertools Metrics (EMF) in the deployment's namespace
 * (POWERTOOLS_METRICS_NAMESPACE), all with the dimension service = BUSINESS_SERVICE and, for some, one
 * dimension more. The alarms and the dashboard (lib/operations.ts) are built from this one list, so a name
 * is written once. Pure: no AWS, no Powertools (lib/ and the tests import it).
 */
export const BUSINESS_SERVICE = 'portale';

/** The second dimension of a metric, with every value it takes. */
export const businessDimensions = {
  /** How a payment reached the portal: the citizen back from MyPay's checkout, or the operator's 'Rendicontazione'. */
  channel: ['checkout', 'reporting'],
  /** How a payment notice went out. */
  notice: ['email', 'io'],
  /**
   * Where an ISEE reading came from: an uploaded PDF (Textract, asynchronously) or image (at once). An ISEE
   * fetched from INPS through PDND, when it comes, is one more value here.
   */
  source: ['pdf', 'image'],
} as const;
export type BusinessDimension = keyof typeof businessDimensions;

interface MetricDefinition {
  /** What one unit of it is, for the dashboard and the runbook. */
  description: string;
  dimension?: BusinessDimension;
}

export const businessMetricDefinitions = {
  PositionsGenerated: {
    description: 'Posizioni debitorie create dalla generazione del mese (API, invio a MyPay, Sincronizza)',
  },
  PositionsExported: { description: 'Posizioni accettate da MyPay (righe del file IUV) a fine flusso' },
  MyPayRowsRejected: { description: 'Righe scartate da MyPay (file SCARTI) a fine flusso' },
  ExportsCompleted: { description: 'Flussi MyPay conclusi (IMPORT_ESEGUITO, anche senza nulla da inviare)' },
  ExportsFailed: { description: 'Flussi MyPay finiti in errore (Errore flusso / Errore flusso interno)' },
  PaymentsRecorded: { description: 'Pagamenti registrati su una posizione', dimension: 'channel' },
  PaymentsToReconcile: {
    description:
      'Ricevute di pagamento non applicabili (importo diverso, posizione annullata o mancante): da riconciliare',
    dimension: 'channel',
  },
  NoticesSent: { description: 'Avvisi di pagamento inviati', dimension: 'notice' },
  NoticesFailed: {
    description: 'Avvisi non inviati per un errore di SES o di IO (non per un cittadino senza e-mail o senza IO)',
    dimension: 'notice',
  },
  IseeRead: { description: 'Attestazioni ISEE lette', dimension: 'source' },
  IseeReadWithWarning: {
    description: 'Attestazioni lette con un avviso: omissioni/difformità, o ISEE diverso da ISE / scala',
    dimension: 'source',
  },
  IseeReadFailed: { description: 'Letture di attestazioni ISEE non riuscite (extractionStatus FAILED)' },
  InpsConfigurationErrors: {
    description:
      'Richieste a INPS fallite per la configurazione del Comune (operazione non prevista dall’e-service, certificato o voucher rifiutati, richiesta rifiutata): nessuna riesce finché non è corretta',
  },
  SupportMessages: { description: 'Messaggi del modulo di assistenza ricevuti' },
} as const satisfies Record<string, MetricDefinition>;

export type BusinessMetric = keyof typeof businessMetricDefinitions;
// Pure: a bundle that imports the module for BUSINESS_SERVICE alone (every function, through observability.ts) drops the catalogue.
export const businessMetricNames = /* @__PURE__ */ Object.keys(businessMetricDefinitions) as BusinessMetric[];

/** The dimension a metric must be counted with (none for most). */
export type DimensionOf<M extends BusinessMetric> = (typeof businessMetricDefinitions)[M] extends {
  dimension: infer D extends BusinessDimension;
}
  ? { [K in D]: (typeof businessDimensions)[K][number] }
  : undefined;
