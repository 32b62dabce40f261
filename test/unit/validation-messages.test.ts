import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { messages } from '../../functions/domain/messages.ts';
import { parseOrThrow, requiredText } from '../../functions/domain/validation.ts';

/** What a payload's sender reads for each kind of mistake (issue 23): the field's message of the 400. */
function errorsOf(schema: z.ZodMiniType, input: unknown): Record<string, string> {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    return (error as { fieldErrors: Record<string, string> }).fieldErrors;
  }
  throw new Error('accepted');
}

const payload = z.strictObject({
  note: requiredText(10),
  flag: z.boolean({ error: messages.required }),
  count: z.number().check(z.int(), z.gte(1), z.lte(5)),
  ratio: z.number().check(z.gt(0), z.lt(1)),
  tags: z.array(z.string()).check(z.minLength(1), z.maxLength(2)),
  kind: z.enum(['A', 'B']),
  day: z.iso.date(),
  nested: z.object({ name: z.string() }),
});
const valid = {
  note: 'ciao',
  flag: true,
  count: 2,
  ratio: 0.5,
  tags: ['x'],
  kind: 'A',
  day: '2026-01-31',
  nested: { name: 'n' },
};

describe('the Italian message of each kind of mistake', () => {
  it.each([
    ['a missing field', { flag: undefined }, { flag: 'Il campo non può essere vuoto!' }],
    ['a blank text', { note: '   ' }, { note: 'Il campo non può essere vuoto!' }],
    ['a flag that is a word', { flag: 'forse' }, { flag: 'Il campo deve essere vero o falso (true o false).' }],
    ['a text that is a number', { note: 42 }, { note: 'Il campo deve essere un testo.' }],
    ['a number that is a word', { count: 'due' }, { count: 'Il campo deve essere un numero.' }],
    ['a whole number with decimals', { count: 1.5 }, { count: 'Il campo deve essere un numero intero.' }],
    ['a list that is a text', { tags: 'x' }, { tags: 'Il campo deve essere un elenco.' }],
    [
      'an object that is a number',
      { nested: 3 },
      { nested: 'Il campo deve essere un insieme di campi (oggetto JSON).' },
    ],
    ['a value outside the choices', { kind: 'C' }, { kind: 'Il valore deve essere uno tra: A, B.' }],
    [
      'numbers out of range',
      { count: 0, ratio: 1 },
      { count: 'Il valore deve essere almeno 1.', ratio: 'Il valore deve essere minore di 1.' },
    ],
    [
      'too many items and too long a text',
      { tags: ['a', 'b', 'c'], note: 'x'.repeat(11) },
      { tags: 'Sono ammessi al massimo 2 elementi.', note: 'Il campo può contenere al massimo 10 caratteri.' },
    ],
    ['a date in another format', { day: '31/01/2026' }, { day: 'Il formato del campo non è valido.' }],
    ['a field the payload does not have', { extra: 1 }, { _: 'Campi non previsti: extra.' }],
  ])('%s', (_, change, expected) => {
    expect(errorsOf(payload, { ...valid, ...change })).toEqual(expected);
  });
});
