import { describe, expect, it } from 'vitest';
import {
  assertCallTransition,
  callInputSchema,
  callStateLabel,
  callUpdateSchema,
  canMoveCall,
  defaultCallName,
  nameSearchKey,
  remainingCallFiles,
} from '../../functions/domain/calls.ts';
import {
  assertCanSubscribe,
  nextSubscriptionState,
  parseSubscriptionId,
  subscribeSchema,
  subscriptionDetailLabels,
  subscriptionId,
  subscriptionListLabels,
} from '../../functions/domain/subscriptions.ts';

const call = { serviceId: 's1', name: 'Bando', codAccertamento: 'A', codCapitolo: 'C', nomeMyPay: 'M' };
const file = { uploadKey: 'staging/x/call-form/1', name: 'modulo.pdf' };

describe('call rules', () => {
  it('shows the states in upper case, in Italian', () => {
    expect([0, 1, 2, 3].map(callStateLabel)).toEqual(['CREATO', 'APERTO', 'CHIUSO', 'ARCHIVIATO']);
  });
  it('names a new call after its service and the current year', () => {
    expect(defaultCallName('Pasti a domicilio', new Date('2025-03-01'))).toBe('Pasti a domicilio 2025');
    // 00:30 on New Year's Day in Rome is still 31 December in UTC: the year is Rome's.
    expect(defaultCallName('Pasti a domicilio', new Date('2025-12-31T23:30:00Z'))).toBe('Pasti a domicilio 2026');
  });
  it('requires serviceId, name, codAccertamento, codCapitolo and nomeMyPay; year and state on edit', () => {
    expect(callInputSchema.safeParse(call).success).toBe(true);
    expect(callInputSchema.safeParse({ ...call, codCapitolo: ' ' }).error?.issues[0].message).toBe(
      'Il campo non può essere vuoto!',
    );
    expect(callUpdateSchema.safeParse(call).success).toBe(false);
    expect(callUpdateSchema.safeParse({ ...call, year: 2025, state: 1 }).success).toBe(true);
    expect(callUpdateSchema.safeParse({ ...call, year: 2025, state: 4 }).error?.issues[0].message).toBe(
      'Lo stato del bando non è valido.',
    );
  });
  it('takes up to five forms, and an edit 5 minus those attached', () => {
    expect(callInputSchema.safeParse({ ...call, files: Array(5).fill(file) }).success).toBe(true);
    expect(callInputSchema.safeParse({ ...call, files: Array(6).fill(file) }).error?.issues[0].message).toBe(
      'Non è possibile caricare più di cinque allegati.',
    );
    expect([0, 3, 5, 6].map(remainingCallFiles)).toEqual([5, 2, 0, 0]);
  });
  it('searches names without regard to case and accents', () => {
    expect(nameSearchKey('  Attività  ESTIVE ')).toBe('attivita estive');
  });
});

describe('call state transitions', () => {
  const allowed = (from: number) => [0, 1, 2, 3].filter((to) => canMoveCall(from, to));
  it('prepares, opens, closes and archives a call; a draft may be archived; a closed call may reopen; an archived one is final', () => {
    expect(allowed(0)).toEqual([0, 1, 3]);
    expect(allowed(1)).toEqual([1, 2]);
    expect(allowed(2)).toEqual([1, 2, 3]);
    expect(allowed(3)).toEqual([3]);
  });
  it('refuses any other move on the state field, naming both states', () => {
    expect(() => assertCallTransition(1, 0)).toThrow(
      expect.objectContaining({
        status: 400,
        fieldErrors: { state: 'Un bando APERTO non può passare allo stato CREATO.' },
      }),
    );
    expect(() => assertCallTransition(3, 1)).toThrow('Un bando ARCHIVIATO non può passare allo stato APERTO.');
    expect(() => assertCallTransition(0, 1)).not.toThrow();
  });
});

describe('subscription rules', () => {
  it('labels each state as the spec does, on the call and in the list', () => {
    expect(subscriptionDetailLabels).toEqual({
      ADDED: 'Richiesta inserita',
      VALIDATED: 'Richiesta approvata',
      SUSPENDED: 'Iscrizione sospesa',
      REFUSED: 'Richiesta rifiutata',
    });
    expect(subscriptionListLabels).toEqual({
      ADDED: 'RICHIESTA INSERITA',
      VALIDATED: 'RICHIESTA APPROVATA',
      SUSPENDED: 'ISCRIZIONE SOSPESA',
      REFUSED: 'ISCRIZIONE RIFIUTATA',
    });
  });
  it('takes up to five files with a request', () => {
    expect(subscribeSchema.safeParse({}).data).toEqual({ files: [] });
    expect(subscribeSchema.safeParse({ files: Array(6).fill(file) }).error?.issues[0].message).toBe(
      'Non è possibile caricare più di cinque allegati.',
    );
  });
  it('lets a citizen apply only to an OPEN call, with a VALIDATED newest ISEE', () => {
    const noIsee =
      'Non è possibile iscriversi ai bandi finché il Comune non ha validato il tuo ISEE: caricalo dalla pagina Caricamento ISEE.';
    expect(() => assertCanSubscribe({ state: 1 }, { state: 'VALIDATED' })).not.toThrow();
    for (const state of [0, 2, 3])
      expect(() => assertCanSubscribe({ state }, { state: 'VALIDATED' })).toThrow(
        'Il bando selezionato non è aperto alle iscrizioni.',
      );
    for (const newest of [null, { state: 'LOADED' }, { state: 'REFUSED' }, { state: 'INVALIDATED' }]) {
      expect(() => assertCanSubscribe({ state: 1 }, newest)).toThrow(
        expect.objectContaining({ status: 400, message: noIsee }),
      );
    }
  });
  it('moves a request by the operator’s codes: 0 pending, 2 approve, 3 refuse, 4 suspend', () => {
    expect(nextSubscriptionState('ADDED', 2)).toBe('VALIDATED');
    expect(nextSubscriptionState('ADDED', 3)).toBe('REFUSED');
    expect(nextSubscriptionState('VALIDATED', 2)).toBe('VALIDATED');
    expect(nextSubscriptionState('VALIDATED', 4)).toBe('SUSPENDED');
    expect(nextSubscriptionState('SUSPENDED', 2)).toBe('VALIDATED');
    expect(nextSubscriptionState('REFUSED', 0)).toBe('ADDED');
  });
  it('refuses any other move (409)', () => {
    expect(() => nextSubscriptionState('REFUSED', 2)).toThrow(
      expect.objectContaining({
        status: 409,
        message: 'Un’iscrizione in stato REFUSED non può passare allo stato VALIDATED.',
      }),
    );
    expect(() => nextSubscriptionState('ADDED', 4)).toThrow(expect.objectContaining({ status: 409 }));
    expect(() => nextSubscriptionState('SUSPENDED', 3)).toThrow(expect.objectContaining({ status: 409 }));
    expect(() => nextSubscriptionState('ADDED', 7)).toThrow(expect.objectContaining({ status: 409 }));
  });
  it('reads the call and the citizen back from a subscription id, and nothing from a malformed one', () => {
    expect(parseSubscriptionId(subscriptionId('c1', 'u1'))).toEqual({ callId: 'c1', userId: 'u1' });
    expect(parseSubscriptionId('c1')).toBeNull();
    expect(parseSubscriptionId('a.b.c')).toBeNull();
  });
});
