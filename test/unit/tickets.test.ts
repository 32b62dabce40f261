import { describe, expect, it } from 'vitest';
import { parseOrThrow } from '../../functions/domain/validation.ts';
import {
  SUPPORT_RATE_LIMITS,
  assertTicketEditable,
  isOpenTicket,
  isTicketReadOnly,
  newTicketSchema,
  supportMessageSchema,
  ticketChanges,
  ticketSearchKind,
  ticketStateLabel,
  ticketUpdateSchema,
} from '../../functions/domain/tickets.ts';
import { supportSubjects } from '../../functions/domain/ticket-subjects.ts';

describe('ticket states (part 2 §4, design.md §4)', () => {
  it('reads 0–3 as Aperto, In Corso, Risolto, Chiuso and anything else as Chiuso', () => {
    expect([0, 1, 2, 3].map(ticketStateLabel)).toEqual(['Aperto', 'In Corso', 'Risolto', 'Chiuso']);
    expect([4, -1, 1.5, '0', null, undefined].map(ticketStateLabel)).toEqual([
      'Chiuso',
      'Chiuso',
      'Chiuso',
      'Chiuso',
      'Chiuso',
      'Chiuso',
    ]);
  });

  it('counts 0 and 1 as open; 2, 3 and unknown values are read-only', () => {
    expect([0, 1, 2, 3, 7].map(isOpenTicket)).toEqual([true, true, false, false, false]);
    expect([0, 1, 2, 3, 7].map(isTicketReadOnly)).toEqual([false, false, true, true, true]);
    expect(() => assertTicketEditable({ stato: 1 })).not.toThrow();
    expect(() => assertTicketEditable({ stato: 2 })).toThrow(
      expect.objectContaining({ status: 409, message: 'Il ticket è risolto o chiuso: non può più essere modificato.' }),
    );
  });
});

describe('support form (part 2 §5)', () => {
  const valid = {
    emailUser: 'maria.rossi@example.it',
    subject: 'Altro',
    message: 'Non riesco a caricare il mio ISEE.',
  };

  it('accepts a valid message, trimmed', () => {
    expect(parseOrThrow(supportMessageSchema, { ...valid, message: '  ciao  ' }).message).toBe('ciao');
  });

  it.each([
    ['an empty e-mail', { emailUser: '' }, 'emailUser', 'Il campo non può essere vuoto!'],
    ['a malformed e-mail', { emailUser: 'maria.rossi@' }, 'emailUser', 'Il formato della mail non è corretto!'],
    [
      'an e-mail with a space',
      { emailUser: 'maria rossi@example.it' },
      'emailUser',
      'Il formato della mail non è corretto!',
    ],
    ['an empty message', { message: '   ' }, 'message', 'Il campo non può essere vuoto!'],
    [
      'a message of 401 characters',
      { message: 'a'.repeat(401) },
      'message',
      'Il campo può contenere al massimo 400 caratteri.',
    ],
    ['no subject', { subject: '' }, 'subject', 'Il campo non può essere vuoto!'],
  ])('refuses %s with the Italian message', (_, change, field, message) => {
    expect(() => parseOrThrow(supportMessageSchema, { ...valid, ...change })).toThrow(
      expect.objectContaining({ status: 400, fieldErrors: { [field]: message } }),
    );
  });

  it('takes exactly 400 characters', () => {
    expect(parseOrThrow(supportMessageSchema, { ...valid, message: 'a'.repeat(400) }).message).toHaveLength(400);
  });

  it('offers the service names and then Altro, once', () => {
    expect(supportSubjects(['Assistenza domiciliare', 'Altro', 'Taxi sociale'])).toEqual([
      'Assistenza domiciliare',
      'Taxi sociale',
      'Accessibilità',
      'Altro',
    ]);
    // An accessibility problem always reaches the office (AgID's feedback mechanism), whatever the services.
    expect(supportSubjects([])).toEqual(['Accessibilità', 'Altro']);
  });
});

describe('operator ticket payloads (part 2 §2.14)', () => {
  it('creates without a state: a state in a new ticket is refused', () => {
    const input = { userId: 'u1', categoria: 'Altro', dettagli: 'Chiamata del cittadino' };
    expect(parseOrThrow(newTicketSchema, input)).toEqual({ ...input, assegnatoA: null });
    expect(() => parseOrThrow(newTicketSchema, { ...input, stato: 2 })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });

  it.each([[-1], [4], [1.5], ['1'], [null]])('refuses the state %j on an edit', (stato) => {
    expect(() => parseOrThrow(ticketUpdateSchema, { stato, categoria: 'Altro', dettagli: 'x' })).toThrow(
      expect.objectContaining({
        status: 400,
        fieldErrors: { stato: 'Lo stato del ticket deve essere compreso tra 0 (Aperto) e 3 (Chiuso).' },
      }),
    );
  });
});

describe('history lines', () => {
  it('lists the fields that changed, states by their label', () => {
    expect(
      ticketChanges(
        { stato: 0, categoria: 'Altro', dettagli: 'a', assegnatoA: null },
        { stato: 1, categoria: 'Altro', dettagli: 'a', assegnatoA: 'Laura Bianchi' },
      ),
    ).toEqual([
      { field: 'stato', before: 'Aperto', after: 'In Corso' },
      { field: 'assegnatoA', before: null, after: 'Laura Bianchi' },
    ]);
    expect(
      ticketChanges(null, { stato: 0, categoria: 'Altro', dettagli: 'a', assegnatoA: null }).map((c) => c.field),
    ).toEqual(['stato', 'categoria', 'dettagli']);
  });
});

describe('search (cerca?q=)', () => {
  it('reads digits as a ticket number, letters with digits as a fiscal code, the rest as a surname or category prefix', () => {
    expect(ticketSearchKind('0042')).toEqual({ kind: 'id', id: '42' });
    expect(ticketSearchKind('rssmra85')).toEqual({ kind: 'fiscalCode', prefix: 'RSSMRA85' });
    expect(ticketSearchKind('De Sànctis')).toEqual({ kind: 'text', prefix: 'desanctis' });
  });
});

describe('support rate limit windows', () => {
  it('counts per day in Rome (20: "riprova domani" is the citizen’s tomorrow) and per clock hour (5)', () => {
    const now = new Date('2026-03-01T23:59:30.000Z');
    expect(SUPPORT_RATE_LIMITS.map((l) => [l.window, l.max, l.key(now)])).toEqual([
      ['day', 20, '2026-03-02'],
      ['hour', 5, '2026-03-01T23'],
    ]);
  });
});
