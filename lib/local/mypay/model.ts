/** The MyPay simulator's records and constants: what MyPay holds (positions, imports, sessions, exports) and the switches. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { municipality } from '../../../web/src/config/municipality.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WSDL_PATH = path.resolve(here, '../../../functions/adapters/mypay/pa-per-ente.wsdl');
export const SOAP_PATH = '/pa/services/PagamentiTelematiciDovutiPagati';
export const OPERATIONS = [
  'paaSILAutorizzaImportFlusso',
  'paaSILChiediStatoImportFlusso',
  'paaSILImportaDovuto',
  'paaSILInviaDovuti',
  'paaSILChiediPagati',
  'paaSILPrenotaExportFlusso',
  'paaSILChiediStatoExportFlusso',
  'paaSILChiediPosizioniAperte',
  'paaSILVerificaAvviso',
] as const;
/** Operations a fault switch can name: the SOAP operations, the MyBox upload and the file downloads. */
export const FAULT_TARGETS = [...OPERATIONS, 'upload', 'download'] as const;

/** The import CSV's columns (reference.md, version 1_3), in order. */
export const IMPORT_COLUMNS = [
  'IUD',
  'codIuv',
  'tipoIdentificativoUnivoco',
  'codiceIdentificativoUnivoco',
  'anagraficaPagatore',
  'indirizzoPagatore',
  'civicoPagatore',
  'capPagatore',
  'localitaPagatore',
  'provinciaPagatore',
  'nazionePagatore',
  'mailPagatore',
  'dataEsecuzionePagamento',
  'importoDovuto',
  'commissioneCaricoPa',
  'tipoDovuto',
  'tipoVersamento',
  'causaleVersamento',
  'datiSpecificiRiscossione',
  'bilancio',
  'flagGeneraIuv',
  'azione',
] as const;

/** MyPay's reporting export columns (version 1.0 of the "export pagati" layout). */
export const EXPORT_COLUMNS = [
  'iuf',
  'numRigaFlusso',
  'codIud',
  'codIuv',
  'versioneOggetto',
  'identificativoDominio',
  'identificativoStazioneRichiedente',
  'identificativoMessaggioRicevuta',
  'dataOraMessaggioRicevuta',
  'riferimentoMessaggioRichiesta',
  'riferimentoDataRichiesta',
  'tipoIdentificativoUnivoco',
  'codiceIdentificativoUnivoco',
  'denominazioneAttestante',
  'codiceUnitOperAttestante',
  'denomUnitOperAttestante',
  'indirizzoAttestante',
  'civicoAttestante',
  'capAttestante',
  'localitaAttestante',
  'provinciaAttestante',
  'nazioneAttestante',
  'enteBenefTipoIdentificativoUnivoco',
  'enteBenefCodiceIdentificativoUnivoco',
  'denominazioneBeneficiario',
  'codiceUnitOperBeneficiario',
  'denomUnitOperBeneficiario',
  'indirizzoBeneficiario',
  'civicoBeneficiario',
  'capBeneficiario',
  'localitaBeneficiario',
  'provinciaBeneficiario',
  'nazioneBeneficiario',
  'soggVersTipoIdentificativoUnivoco',
  'soggVersCodiceIdentificativoUnivoco',
  'anagraficaVersante',
  'indirizzoVersante',
  'civicoVersante',
  'capVersante',
  'localitaVersante',
  'provinciaVersante',
  'nazioneVersante',
  'emailVersante',
  'soggPagTipoIdentificativoUnivoco',
  'soggPagCodiceIdentificativoUnivoco',
  'anagraficaPagatore',
  'indirizzoPagatore',
  'civicoPagatore',
  'capPagatore',
  'localitaPagatore',
  'provinciaPagatore',
  'nazionePagatore',
  'emailPagatore',
  'codiceEsitoPagamento',
  'importoTotalePagato',
  'identificativoUnivocoVersamento',
  'codiceContestoPagamento',
  'singoloImportoPagato',
  'esitoSingoloPagamento',
  'dataEsitoSingoloPagamento',
  'identificativoUnivocoRiscoss',
  'causaleVersamento',
  'datiSpecificiRiscossione',
  'tipoDovuto',
] as const;

/** MyPay4 util/Constants.java TIPO_VERSAMENTO (a row may list several, `|`-separated). */
export const TIPI_VERSAMENTO = new Set(['ALL', 'BBT', 'BP', 'AD', 'CP', 'PO', 'OBEP']);

export interface SimulatedEntity {
  codIpa: string;
  password: string;
  /** Segregation code of the entity's IUVs (2 digits): MyPay's generator starts its IUVs with it (IuvService.java). */
  segregationCode: string;
  /**
   * The entity's application code (mygov_ente.application_code): an IUV of 17 digits sent with flagGeneraIuv=false
   * must start with it (Utilities.validaIUV). Default: the segregation code.
   */
  applicationCode?: string;
  name: string;
  /** The entity's tipi dovuto, active or not (MyPay4 mygov_ente_tipo_dovuto): a row of another is refused. */
  tipiDovuto: Record<string, boolean>;
  /**
   * The tipi dovuto whose due date is required (flg_scadenza_obbligatoria): an import row's due date must be given
   * and not past, and past it MyPay4 refuses the payment.
   */
  scadenzaObbligatoria?: string[];
}

export interface MyPaySimulatorOptions {
  port: number;
  host?: string;
  /** Where state.json and the result files live (<dataDir>/mypay). */
  dataDir: string;
  entities?: SimulatedEntity[];
  /** How long a "timeout" fault holds a request before dropping the connection (default 60 s). */
  holdMs?: number;
  /**
   * MyPay's default entity (pa.codIpaEntePredefinito): paaSILChiediPosizioniAperte checks its password, not
   * the caller's (ChiediPosizioniAperteService.java). Default: the first entity.
   */
  defaultEntity?: string;
  /**
   * MyPay's pa.modelloUnico (default true, pagoPA's current model): a checkout's cart is linked to its session
   * only when pagoPA's receipt (paSendRT) arrives, so paaSILChiediPagati knows nothing before; false: the
   * older WISP mode, where the cart exists from the start of the payment.
   */
  modelloUnico?: boolean;
}

/** The XSD MyPay4 validates paaSILInviaDovuti's `dovuti` against (PagamentiTelematiciDovutiPagatiImpl.java). */
export const DOVUTI_XSD_PATH = path.resolve(here, 'PagInf_Dovuti_Pagati_6_2_0.xsd');
/** MyPay4 expires a cart not started within 15 minutes (application.properties task.scadenzaCarrello.minutiScadenzaCarrello). */
export const CART_EXPIRY_MS = 15 * 60_000;
/**
 * How long MyPay4 keeps a paaSILVerificaAvviso basket (StorageService, cache.cacheExpirations.uploadCache=3600),
 * and the grace after which paaSILChiediPagati calls a session with no cart expired (isTokenWithTimestampExpired, 300 s).
 */
export const BASKET_STORAGE_MS = 3600_000;
export const SESSION_EXPIRY_GRACE_MS = 300_000;

/** The council the simulator serves: the one the portal shows (web/src/config/municipality.ts), named on MyPay's pages. */
export const DEFAULT_ENTITY: SimulatedEntity = {
  codIpa: 'C_DEMO',
  password: 'Password1!',
  segregationCode: '01',
  applicationCode: '01',
  name: municipality.name,
  tipiDovuto: { SERVIZI_SOCIALI: true },
};

export type PositionStatus = 'DA_PAGARE' | 'PAGATO' | 'ANNULLATO';
export interface Position {
  codIpa: string;
  iud: string;
  iuv: string;
  status: PositionStatus;
  amountCents: number;
  tipoIdentificativoUnivoco: string;
  fiscalCode: string;
  anagrafica: string;
  email: string;
  causale: string;
  dueDate: string;
  tipoDovuto: string;
  datiSpecificiRiscossione: string;
  updatedAt: string;
  /** esito: esitoSingoloPagamento as MyPay stores it ('0' for pagoPA's paSendRT, 'PAGATO CON RENDICONTAZIONE 9', or a receipt's text). */
  paid?: PaymentRecord;
  /** Payments after the first (a notice paid twice through two channels): reported too. */
  morePayments?: PaymentRecord[];
  /** The session MyPay4 fixes for the position when paaSILChiediPosizioniAperte first lists it (dovuto.idSession). */
  idSession?: string;
  /** The payer's CAP and country as imported (the landing checks an Italian CAP). */
  cap?: string;
  nazione?: string;
  /** The bulk import (request token) that loaded the position: payable only once that flow is loaded (CARICATO). */
  flow?: string;
}
/** What paaSILVerificaAvviso stores for its landing (MyPay4 BasketTo, kept in its storage for an hour). */
export interface BasketRecord {
  token: string;
  idSession: string;
  codIpa: string;
  backUrl: string;
  iuds: string[];
  createdAt: string;
}
export interface PaymentRecord {
  amountCents: number;
  paidOn: string;
  iur: string;
  esito?: string;
}
export type ImportState = 'AUTORIZZATO' | 'LOAD_IMPORT' | 'IMPORT_IN_ELAB' | 'IMPORT_ESEGUITO' | 'IMPORT_ABORTITO';
export const IMPORT_FAIL_STAGES = ['scarti', 'iuv', 'avvisi', 'righe'] as const;
export type ImportFailStage = (typeof IMPORT_FAIL_STAGES)[number];

export interface ImportRecord {
  requestToken: string;
  codIpa: string;
  createdAt: string;
  state: ImportState;
  /** 'stuck': kept in IMPORT_IN_ELAB (an entity with GPD enabled); 'failed': ends with `failWith`. */
  mode: 'normal' | 'stuck' | 'failed';
  failWith?: string;
  /**
   * Where a PAA_IMPORT_ERROR strikes. MyPay4 sets it inside elaboraCsv (ImportFlussoTaskService.java:873-981),
   * after the rows were inserted: writing the SCARTI file, the IUV file or the notice PDFs, or reading the CSV
   * (`righe`: after `failAfterRows` rows). The import then ends IMPORT_ESEGUITO with the code
   * (validaFlusso:650-660), and its files are offered as the counts say, even one MyPay deleted.
   */
  failStage?: ImportFailStage;
  failAfterRows?: number;
  fileName?: string;
  /** The flow's IUF (the second part of the name). */
  iuf?: string;
  uploadedAt?: string;
  processed?: boolean;
  elabReported?: boolean;
  rows?: number;
  accepted?: number;
  rejected?: number;
  files: { iuv?: string; scarti?: string; avvisi?: string };
  /**
   * MyPay's error code when it failed the import (ImportFlussoTaskService.validaFlusso): the status answers
   * it instead of the state (PagamentiTelematiciDovutiPagatiImpl.paaSILChiediStatoImportFlusso).
   */
  codErrore?: string;
  /** The elaboration ran (rows may be inserted): a failure then leaves the import IMPORT_ESEGUITO. */
  rowsInserted?: boolean;
  /** The result files whose writing failed (failStage): offered, but deleted. */
  failedFiles?: string[];
  /** The MD5 MyPay keeps beside the file (`<name>.md5`), compared when the import is processed. */
  md5?: string;
}
export interface SessionRecord {
  idSession: string;
  codIpa: string;
  returnUrl: string;
  iuds: string[];
  status: 'NON_INIZIATO' | 'IN_CORSO' | 'PAGATO' | 'KO' | 'ANNULLATO' | 'SCADUTO';
  createdAt: string;
  /** The payment each position got in this session (by IUD), when paid. */
  payments?: Record<string, PaymentRecord>;
  /**
   * Modello unico: false until pagoPA's receipt links the cart to the session (MyPay4's Carrello does not
   * exist before); paaSILChiediPagati does not see the session meanwhile. Absent: linked (WISP, the older paths).
   */
  linked?: boolean;
  /** Modello unico: a receipt pagoPA has not delivered yet (the switch holdReceipts). */
  pendingReceipt?: boolean;
}
export interface ExportRecord {
  requestToken: string;
  codIpa: string;
  from: string;
  to: string;
  polls: number;
  state: 'LOAD_EXPORT' | 'EXPORT_IN_ELAB' | 'EXPORT_ESEGUITO' | 'EXPORT_ESEGUITO_NESSUN_DOVUTO_TROVATO';
  file?: string;
}
export interface State {
  nextIuv: Record<string, number>;
  positions: Record<string, Position>;
  imports: Record<string, ImportRecord>;
  /** authorizationToken → requestToken */
  authorizations: Record<string, string>;
  sessions: Record<string, SessionRecord>;
  exports: Record<string, ExportRecord>;
  /** download token → file name under files/ */
  downloads: Record<string, string>;
  /** Every ZIP name received, by entity (MyPay4 FlussoDao.countDuplicateFileName: a name is never taken twice). */
  fileNames: Record<string, string[]>;
  /** paaSILVerificaAvviso's baskets by token, and the token of each of their sessions. */
  baskets: Record<string, BasketRecord>;
  basketOfSession: Record<string, string>;
}

export type FaultKind = '5xx' | 'timeout' | 'lost-answer';
export interface FaultRule {
  target: string;
  kind: FaultKind;
  /** null = always */
  remaining: number | null;
}
export interface Switches {
  faults: FaultRule[];
  /** The next imports uploaded stay in IMPORT_IN_ELAB ('stuck', as with GPD) or fail with MyPay's `code`. */
  importMode: {
    mode: 'stuck' | 'failed';
    code?: string;
    stage?: ImportFailStage;
    afterRows?: number;
    remaining: number | null;
  } | null;
  /** Rows rejected by the next import: these IUDs (every import while set) and/or the first `count` valid rows (once). */
  reject: { iuds: string[]; count: number };
  /** The next authorisations hand out a request token that was already used. */
  reuseToken: number;
  /** Modello unico: paid checkouts wait for POST /admin/receipts to deliver pagoPA's receipt (paSendRT). */
  holdReceipts: boolean;
}
