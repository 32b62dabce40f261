import * as z from 'zod/mini';
import { ValidationError } from './errors.ts';
import { fill, messages } from './messages.ts';

/** A required free text: trimmed, not empty, bounded. */
export const requiredText = (max: number) =>
  z
    .string({ error: messages.required })
    .check(z.trim(), z.minLength(1, messages.required), z.maxLength(max, fill(messages.tooLong, { max })));

/**
 * What is wrong with a value no schema gave its own message for, by kind of error (issue 23); 'required' is
 * only for a field that is missing or empty. Here rather than in `messages`, which the web's first load carries.
 */
export const inputMessages = {
  string: 'Il campo deve essere un testo.',
  number: 'Il campo deve essere un numero.',
  int: 'Il campo deve essere un numero intero.',
  boolean: 'Il campo deve essere vero o falso (true o false).',
  array: 'Il campo deve essere un elenco.',
  object: 'Il campo deve essere un insieme di campi (oggetto JSON).',
  type: 'Il campo contiene un tipo di valore non ammesso.',
  choice: 'Il valore deve essere uno tra: {values}.',
  atLeast: 'Il valore deve essere almeno {min}.',
  above: 'Il valore deve essere maggiore di {min}.',
  atMost: 'Il valore può essere al massimo {max}.',
  below: 'Il valore deve essere minore di {max}.',
  tooShort: 'Il campo deve contenere almeno {min} caratteri.',
  fewItems: 'Servono almeno {min} elementi.',
  manyItems: 'Sono ammessi al massimo {max} elementi.',
  format: 'Il formato del campo non è valido.',
  unknownFields: 'Campi non previsti: {keys}.',
  invalid: 'Il valore del campo non è valido.',
} as const;

/** A value was given: not missing, not null, not a blank text. */
const isGiven = (input: unknown) =>
  input !== undefined && input !== null && !(typeof input === 'string' && input.trim() === '');

/** What zod reports of one problem (its raw issue in the error map, its final issue in a ZodError). */
interface IssueFacts {
  code?: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
  values?: readonly unknown[];
  keys?: readonly string[];
}

/**
 * The Italian message of a problem by its kind (issue 23): a missing or empty field is 'Il campo non può
 * essere vuoto!'; a value of the wrong kind says which kind was expected (a text, a number, true or
 * false…); a value out of range or not among the choices says so. Zod's own messages are English.
 */
export function issueMessage(issue: IssueFacts): string {
  const text = inputMessages;
  const [min, max] = [String(issue.minimum), String(issue.maximum)];
  const collection = issue.origin === 'array' || issue.origin === 'set';
  switch (issue.code) {
    case 'invalid_type':
      if (!isGiven(issue.input)) return messages.required;
      return text[issue.expected as 'string' | 'number' | 'int' | 'boolean' | 'array' | 'object'] ?? text.type;
    case 'invalid_value':
      return issue.values?.length ? fill(text.choice, { values: issue.values.map(String).join(', ') }) : text.invalid;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? messages.required : fill(text.tooShort, { min });
      return fill(collection ? text.fewItems : issue.inclusive === false ? text.above : text.atLeast, { min });
    case 'too_big':
      return fill(
        issue.origin === 'string'
          ? messages.tooLong
          : collection
            ? text.manyItems
            : issue.inclusive === false
              ? text.below
              : text.atMost,
        { max },
      );
    case 'invalid_format':
      return text.format;
    case 'unrecognized_keys':
      return fill(text.unknownFields, { keys: (issue.keys ?? []).join(', ') });
    default:
      return text.invalid;
  }
}

// The one error map of every schema (API and web forms): any problem a schema gives no message of its own.
z.config({ customError: (issue) => issueMessage(issue as IssueFacts) });

/**
 * The field → message map a form shows beside each field. A schema's 'Il campo non può essere vuoto!' is
 * kept for an empty field only: given a value of the wrong kind (`true` for a text, "forse" for a flag), the
 * field says what is wrong — when the issues carry their input (parseOrThrow asks zod for it).
 */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    const wrongKind = issue.message === messages.required && 'input' in issue && isGiven(issue.input);
    byField[field] ??= wrongKind ? issueMessage(issue as IssueFacts) : issue.message;
  }
  return byField;
}

/** Parses input against a schema; a failure becomes a 400 carrying each field's Italian message. */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const byField = fieldErrors(result.error);
  const detail = Object.keys(byField).length === 1 ? Object.values(byField)[0] : messages.invalidRequest;
  throw new ValidationError(detail, byField);
}

/** zod's `preprocess` (classic zod's, which zod/mini lacks): `fn` shapes the raw input before `schema` checks it. */
export const preprocess = <U extends z.core.SomeType>(fn: (input: unknown) => unknown, schema: U) =>
  z.pipe(z.transform(fn), schema as unknown as z.core.$ZodType<unknown, unknown>) as unknown as z.ZodMiniPipe<
    z.ZodMiniTransform<unknown, unknown>,
    U
  >;

export const pageQuerySchema = z.object({
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});

export const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const idParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
