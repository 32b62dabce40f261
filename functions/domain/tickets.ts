import * as z from 'zod/mini';
import { romeDay } from './period.ts';
import { ConflictError } from './errors.ts';
import { messages } from './messages.ts';
import { EMAIL_PATTERN, normaliseSearchText } from './users.ts';
import { requiredText } from './validation.ts';

/**
 * Tickets and support messages (spec part 2 §2.9, §2.14, §3, §4, §5; part 1 §2, §7; design.md §4).
 * States: 0 Aperto, 1 In Corso, 2 Risolto, 3 Chiuso; unknown values read as Chiuso. Open = 0 and 1.
 */
export const TICKET_PAGE_SIZE = 10;
/** Part 2 §5 and §9: a support message has at most 400 characters. */
export const SUPPORT_MESSAGE_MAX = 400;

export const ticketMessages = {
  notFound: 'Il ticket selezionato non esiste.',
  email: 'Il formato della mail non è corretto!',
  subject: 'Scegli l’oggetto tra i servizi elencati o Altro.',
  state: 'Lo stato del ticket deve essere compreso tra 0 (Aperto) e 3 (Chiuso).',
  readOnly: 'Il ticket è risolto o chiuso: non può più essere modificato.',
  tooManyPerHour: 'Hai inviato troppe segnalazioni nell’ultima ora: riprova più tardi.',
  tooManyPerDay: 'Hai raggiunto il numero massimo di segnalazioni per oggi: riprova domani.',
  sent: 'Segnalazione avvenuta con successo, risponderemo alla mail indicata!',
  query: 'Scrivi almeno 2 caratteri da cercare.',
} as const;

export const TicketState = { OPEN: 0, IN_PROGRESS: 1, RESOLVED: 2, CLOSED: 3 } as const;
export const ticketStates = [0, 1, 2, 3] as const;
export type TicketStateValue = (typeof ticketStates)[number];

const STATE_LABELS = ['Aperto', 'In Corso', 'Risolto', 'Chiuso'] as const;
/** Part 2 §4: 0 Aperto, 1 In Corso, 2 Risolto, 3 Chiuso; any other value reads Chiuso. */
export const ticketStateLabel = (state: unknown): string =>
  typeof state === 'number' && Number.isInteger(state) && state >= 0 && state <= 3 ? STATE_LABELS[state] : 'Chiuso';

/** design.md §4: open tickets (dashboard badge, /lista_ticket) are 0 Aperto and 1 In Corso. */
export const isOpenTicket = (state: unknown) => state === TicketState.OPEN || state === TicketState.IN_PROGRESS;

/** Part 2 §2.14: Risolto or Chiuso (and anything unknown, which reads Chiuso) is read-only. */
export const isTicketReadOnly = (state: unknown) => !isOpenTicket(state);

export function assertTicketEditable(ticket: { stato: unknown }): void {
  if (isTicketReadOnly(ticket.stato)) throw new ConflictError(ticketMessages.readOnly);
}

const emailField = z.string({ error: messages.required }).check(
  z.trim(),
  z.minLength(1, messages.required),
  z.maxLength(254, ticketMessages.email),
  z.refine((value) => EMAIL_PATTERN.test(value), ticketMessages.email),
);

/** Part 2 §3 'Support message': emailUser, subject, message. The subject is checked against the services by the use case. */
export const supportMessageSchema = z.object({
  emailUser: emailField,
  subject: requiredText(120),
  message: requiredText(SUPPORT_MESSAGE_MAX),
});
export type SupportMessage = z.output<typeof supportMessageSchema>;

const optionalText = (max: number) =>
  z.pipe(
    z.nullish(z.string().check(z.trim(), z.maxLength(max, `Il campo può contenere al massimo ${max} caratteri.`))),
    z.transform((value) => (value ? value : null)),
  );

const stateField = z
  .number({ error: ticketMessages.state })
  .check(z.int(ticketMessages.state), z.gte(0, ticketMessages.state), z.lte(3, ticketMessages.state));

/** A new ticket made by an operator for a user (part 2 §2.14: no state choice, it starts Aperto). */
export const newTicketSchema = z.strictObject(
  {
    userId: z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required), z.maxLength(64)),
    categoria: requiredText(120),
    dettagli: requiredText(2000),
    assegnatoA: optionalText(120),
  },
  {
    error: (issue) => (issue.code === 'unrecognized_keys' ? 'Un nuovo ticket non ha stato: nasce Aperto.' : undefined),
  },
);
export type NewTicketInput = z.output<typeof newTicketSchema>;

/**
 * An edit (part 2 §2.14): state 0–3, assignee, category, details, and the `ultimoAggiornamento` of the copy
 * the operator edited: a copy another operator has saved over since is refused (409), never overwritten.
 */
export const ticketUpdateSchema = z.object({
  stato: stateField,
  categoria: requiredText(120),
  dettagli: requiredText(2000),
  assegnatoA: optionalText(120),
  ultimoAggiornamento: z.optional(z.string().check(z.maxLength(40))),
});
export type TicketUpdate = z.output<typeof ticketUpdateSchema>;

/** Part 2 §3 'Ticket': id, dataApertura, stato, richiedente, ultimoAggiornamento, categoria, dettagli, assegnatoA, userId. */
export const ticketSchema = z.object({
  id: z.string(),
  dataApertura: z.string(),
  stato: z.number().check(z.int()),
  richiedente: z.string(),
  ultimoAggiornamento: z.string(),
  categoria: z.string(),
  dettagli: z.string(),
  assegnatoA: z.nullable(z.string()),
  userId: z.string(),
  fiscalCode: z.nullable(z.string()),
  emailUser: z.nullable(z.string()),
});
export type Ticket = z.output<typeof ticketSchema>;

/** One line of a ticket's history: who changed what, and when. */
export const ticketHistoryEntrySchema = z.object({
  at: z.string(),
  who: z.string(),
  role: z.string(),
  action: z.enum(['create', 'update', 'delete']),
  changes: z.array(z.object({ field: z.string(), before: z.nullable(z.string()), after: z.nullable(z.string()) })),
});
export type TicketHistoryEntry = z.output<typeof ticketHistoryEntrySchema>;

const TRACKED_FIELDS = ['stato', 'categoria', 'dettagli', 'assegnatoA'] as const;
const shown = (field: string, value: unknown): string | null =>
  value === null || value === undefined || value === ''
    ? null
    : field === 'stato'
      ? ticketStateLabel(value)
      : String(value);

/** What changed between two versions of a ticket (null before: a creation, every field set). */
export function ticketChanges(
  before: Partial<Ticket> | null,
  after: Partial<Ticket> | null,
): TicketHistoryEntry['changes'] {
  return TRACKED_FIELDS.flatMap((field) => {
    const [from, to] = [shown(field, before?.[field]), shown(field, after?.[field])];
    return from === to ? [] : [{ field, before: from, after: to }];
  });
}

/** `cerca?q=`: the query, and how it is looked up (README, "Ticket search"). */
export const ticketSearchQuerySchema = z.object({
  q: z
    .string({ error: ticketMessages.query })
    .check(z.trim(), z.minLength(2, ticketMessages.query), z.maxLength(100, ticketMessages.query)),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
  cursor: z.optional(z.string().check(z.maxLength(4000))),
});
export type TicketSearch = z.output<typeof ticketSearchQuerySchema>;

export type TicketSearchKind =
  { kind: 'id'; id: string } | { kind: 'fiscalCode'; prefix: string } | { kind: 'text'; prefix: string };

/**
 * Which index answers a query: digits only → the ticket's number; letters with digits (no spaces) → a
 * fiscal-code prefix; anything else → a prefix of the requester's surname or of the category, normalised.
 */
export function ticketSearchKind(q: string): TicketSearchKind {
  const compact = q.replace(/\s+/g, '');
  if (/^\d+$/.test(compact)) return { kind: 'id', id: String(Number(compact)) };
  if (/^[A-Za-z0-9]+$/.test(compact) && /\d/.test(compact))
    return { kind: 'fiscalCode', prefix: compact.toUpperCase() };
  return { kind: 'text', prefix: searchKey(q) };
}

/** The normalised form stored in the search keys: lower case, no accents, letters and digits only. */
export const searchKey = (text: string | null | undefined) => normaliseSearchText(text);

/**
 * Rate limit of the support form, per citizen: at most 5 messages in a clock hour and 20 in a day (Rome's day: 'riprova domani' means the citizen's tomorrow).
 * Each window is a counter item, incremented only while under its maximum (a conditional write).
 */
export const SUPPORT_RATE_LIMITS = [
  { window: 'day', max: 20, message: ticketMessages.tooManyPerDay, key: (now: Date) => romeDay(now) },
  {
    window: 'hour',
    max: 5,
    message: ticketMessages.tooManyPerHour,
    key: (now: Date) => now.toISOString().slice(0, 13),
  },
] as const;
