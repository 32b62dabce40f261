import type { InpsAnswer, InpsApplicationState, InpsAttestation, InpsIndicator } from '../../domain/inps.ts';

/** What a query to INPS asks (the XSD's RicercaCFType): every field is sent, as reference.md says. */
export interface InpsRequest {
  fiscalCode: string;
  /** yyyy-mm-dd: the DSU valid on this day. */
  dataValidita: string;
  /** PrestazioneDaErogare (the deployment's INPS_BENEFIT_CODE). */
  benefitCode: string;
  /** ProtocolloDomandaEnteErogatore: the council's application number (domain/inps.ts applicationNumber). */
  applicationNumber: string;
  applicationState: InpsApplicationState;
  /** Who asks, for the audit information (AUDIT_REST_02) when the e-service wants it. */
  requestedBy?: { userID: string; LoA: string };
  /** Epoch ms by which the answer (or the failure) must be back: the calling function's time budget. */
  deadline?: number;
}

/**
 * INPS's ISEE e-services through PDND (reference.md "ISEE from INPS through PDND"). The adapter is
 * functions/adapters/inps-isee.ts (the voucher from functions/adapters/pdnd.ts); locally it talks to
 * lib/local/inps-simulator.ts. An Esito other than OK is in the answer; errors by name: `InpsUnavailable`,
 * `InpsMalformed`, `PdndUnavailable` (retry later), `InpsRefused`, `PdndRefused` (configuration).
 */
export interface InpsIsee {
  /** Whether the council has the indicator e-service, and which attestation operation it calls. */
  settings: { hasIndicator: boolean; attestationOperation: string };
  attestation(request: InpsRequest): Promise<InpsAnswer<InpsAttestation>>;
  indicator(request: InpsRequest, tipoIndicatore?: string): Promise<InpsAnswer<InpsIndicator>>;
}
