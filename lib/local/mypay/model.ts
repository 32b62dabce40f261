/** The MyPay simulator's records and constants: what MyPay holds (positions, imports, sessions, exports) and the switches. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  'iuf', 'numRigaFlusso', 'codIud', 'codIuv', 'versioneOggetto', 'identificativoDominio', 'identificativoStazioneRichiedente',
  'identificativoMessaggioRicevuta', 'dataOraMessaggioRicevuta', 'riferimentoMessaggioRichiesta', 'riferimentoDataRichiesta',
  'tipoIdentificativoUnivoco', 'codiceIdentificativoUnivoco', 'denominazioneAttestante', 'codiceUnitOperAttestante',
  'denomUnitOperAttestante', 'indirizzoAttestante', 'civicoAttestante', 'capAttestante', 'localitaAttestante',
  'provinciaAttestante', 'nazioneAttestante', 'enteBenefTipoIdentificativoUnivoco', 'enteBenefCodiceIdentificativoUnivoco',
  'denominazioneBeneficiario', 'codiceUnitOperBeneficiario', 'denomUnitOperBeneficiario', 'indirizzoBeneficiario',
  'civicoBeneficiario', 'capBeneficiario', 'localitaBeneficiario', 'provinciaBeneficiario', 'nazioneBeneficiario',
  'soggVersTipoIdentificativoUnivoco', 'soggVersCodiceIdentificativoUnivoco', 'anagraficaVersante', 'indirizzoVersante',
  'civicoVersante', 'capVersante', 'localitaVersante', 'provinciaVersante', 'nazioneVersante', 'emailVersante',
  'soggPagTipoIdentificativoUnivoco', 'soggPagCodiceIdentificativoUnivoco', 'anagraficaPagatore', 'indirizzoPagatore',
  'civicoPagatore', 'capPagatore', 'localitaPagatore', 'provinciaPagatore', 'nazionePagatore', 'emailPagatore',
  'codiceEsitoPagamento', 'importoTotalePagato', 'identificativoUnivocoVersamento', 'codiceContestoPagamento',
  'singoloImportoPagato', 'esitoSingoloPagamento', 'dataEsitoSingoloPagamento', 'identificativoUnivocoRiscoss',
  'causaleVersamento', 'datiSpecificiRiscossione', 'tipoDovuto',
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
  /** Tipi dovuto with "scadenza obbligatoria" (flg_scadenza_obbligatoria): a row's due date must be given, not past. */
  scadenzaObbligatoria?: string[];
  name: string;
  /** The entity's tipi dovuto, active or not (MyPay4 mygov_ente_tipo_dovuto): a row of another is refused. */
  tipiDovuto: Record<string, boolean>;
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
}

/** The XSD MyPay4 validates paaSILInviaDovuti's `dovuti` against (PagamentiTelematiciDovutiPagatiImpl.java). */
export const DOVUTI_XSD_PATH = path.resolve(here, 'PagInf_Dovuti_Pagati_6_2_0.xsd');
/** MyPay4 expires a cart not started within 15 minutes (application.properties task.scadenzaCarrello.minutiScadenzaCarrello). */
export const CART_EXPIRY_MS = 15 * 60_000;

export const DEFAULT_ENTITY: SimulatedEntity = { codIpa: 'C_DEMO', password: 'Password1!', segregationCode: '01', applicationCode: '01', name: 'Comune di Esempio', tipiDovuto: { SERVIZI_SOCIALI: true } };

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
}
export interface PaymentRecord {
  amountCents: number;
  paidOn: string;
  iur: string;
  esito?: string;
}
export type ImportState = 'AUTORIZZATO' | 'LOAD_IMPORT' | 'IMPORT_IN_ELAB' | 'IMPORT_ESEGUITO' | 'IMPORT_ABORTITO';
export interface ImportRecord {
  requestToken: string;
  codIpa: string;
  createdAt: string;
  state: ImportState;
  /** 'stuck': kept in IMPORT_IN_ELAB (an entity with GPD enabled); 'failed': ends with `failWith`. */
  mode: 'normal' | 'stuck' | 'failed';
  failWith?: string;
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
  importMode: { mode: 'stuck' | 'failed'; code?: string; remaining: number | null } | null;
  /** Rows rejected by the next import: these IUDs (every import while set) and/or the first `count` valid rows (once). */
  reject: { iuds: string[]; count: number };
  /** The next authorisations hand out a request token that was already used. */
  reuseToken: number;
}
