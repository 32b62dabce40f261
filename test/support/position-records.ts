import type { PositionRecord } from '../../functions/domain/debt-positions.ts';

/**
 * Maria Rossi's March 2026 position of call-1 as stored once exported to MyPay (IUV and NAV, version 3),
 * created, updated and exported `at`: the unit tests' starting point for a position's transitions and its
 * payment.
 */
export function exportedPosition(at: string, overrides: Partial<PositionRecord> = {}): PositionRecord {
  const iud = overrides.iud ?? 'P202603AAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  return {
    id: iud,
    iud,
    callId: 'call-1',
    userId: 'user-maria',
    fiscalCode: 'RSSMRA85C52H501N',
    cognome: 'Rossi',
    nome: 'Maria',
    mese: 3,
    anno: 2026,
    titolo: 'Assistenza domiciliare – Marzo 2026',
    descrizione: 'Quota Marzo 2026',
    importoDovuto: 6643,
    importoTotalePagato: 0,
    isPagato: false,
    annullato: false,
    codIuv: '01000000001234519',
    nav: '301000000001234519',
    dataScadenza: '2026-03-31',
    azione: 'I',
    statoExport: 'ESPORTATA',
    lastExportError: null,
    isEmailSent: false,
    dataIsEmailSent: null,
    ioId: null,
    dataEsitoSingoloPagamento: null,
    createdAt: at,
    updatedAt: at,
    exportedAt: at,
    iseeId: null,
    version: 3,
    ...overrides,
  };
}

/** The same position as planned and not yet sent to the payment platform: no IUV or NAV, version 1. */
export function positionToExport(at: string, overrides: Partial<PositionRecord> = {}): PositionRecord {
  return exportedPosition(at, {
    codIuv: null,
    nav: null,
    statoExport: 'DA_ESPORTARE',
    exportedAt: null,
    version: 1,
    ...overrides,
  });
}
