import { describe, expect, it } from 'vitest';
import { callInputSchema, callStateLabel, callUpdateSchema, defaultCallName, nameSearchKey, remainingCallFiles } from '../../functions/domain/calls.ts';
import { parseSubscriptionId, subscribeSchema, subscriptionDetailLabels, subscriptionId, subscriptionListLabels } from '../../functions/domain/subscriptions.ts';

const call = { serviceId: 's1', name: 'Bando', codAccertamento: 'A', codCapitolo: 'C', nomeMyPay: 'M' };
const file = { uploadKey: 'staging/x/call-form/1', name: 'modulo.pdf' };

describe('call rules', () => {
  it('shows the states in upper case, in Italian', () => {
    expect([0, 1, 2, 3].map(callStateLabel)).toEqual(['CREATO', 'APERTO', 'CHIUSO', 'ARCHIVIATO']);
  });
  it('names a new call after its service and the current year', () => {
    expect(defaultCallName('Pasti a domicilio', new Date('2025-03-01'))).toBe('Pasti a domicilio 2025');
  });
  it('requires serviceId, name, codAccertamento, codCapitolo and nomeMyPay; year and state on edit', () => {
    expect(callInputSchema.safeParse(call).success).toBe(true);
    expect(callInputSchema.safeParse({ ...call, codCapitolo: ' ' }).error?.issues[0].message).toBe('Il campo non può essere vuoto!');
    expect(callUpdateSchema.safeParse(call).success).toBe(false);
    expect(callUpdateSchema.safeParse({ ...call, year: 2025, state: 1 }).success).toBe(true);
    expect(callUpdateSchema.safeParse({ ...call, year: 2025, state: 4 }).error?.issues[0].message).toBe('Lo stato del bando non è valido.');
  });
  it('takes up to five forms, and an edit 5 minus those attached', () => {
    expect(callInputSchema.safeParse({ ...call, files: Array(5).fill(file) }).success).toBe(true);
    expect(callInputSchema.safeParse({ ...call, files: Array(6).fill(file) }).error?.issues[0].message).toBe('Non è possibile caricare più di cinque allegati.');
    expect([0, 3, 5, 6].map(remainingCallFiles)).toEqual([5, 2, 0, 0]);
  });
  it('searches names without regard to case and accents', () => {
    expect(nameSearchKey('  Attività  ESTIVE ')).toBe('attivita estive');
  });
});

describe('subscription rules', () => {
  it('labels each state as the spec does, on the call and in the list', () => {
    expect(subscriptionDetailLabels).toEqual({ ADDED: 'Richiesta inserita', VALIDATED: 'Richiesta approvata', SUSPENDED: 'Iscrizione sospesa', REFUSED: 'Richiesta rifiutata' });
    expect(subscriptionListLabels).toEqual({ ADDED: 'RICHIESTA INSERITA', VALIDATED: 'RICHIESTA APPROVATA', SUSPENDED: 'ISCRIZIONE SOSPESA', REFUSED: 'ISCRIZIONE RIFIUTATA' });
  });
  it('takes up to five files with a request', () => {
    expect(subscribeSchema.safeParse({}).data).toEqual({ files: [] });
    expect(subscribeSchema.safeParse({ files: Array(6).fill(file) }).error?.issues[0].message).toBe('Non è possibile caricare più di cinque allegati.');
  });
  it('reads the call and the citizen back from a subscription id, and nothing from a malformed one', () => {
    expect(parseSubscriptionId(subscriptionId('c1', 'u1'))).toEqual({ callId: 'c1', userId: 'u1' });
    expect(parseSubscriptionId('c1')).toBeNull();
    expect(parseSubscriptionId('a.b.c')).toBeNull();
  });
});
