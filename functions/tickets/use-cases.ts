import { ConflictError, NotFoundError, TooManyRequestsError, ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { Service } from '../domain/services.ts';
import { supportSubjects } from '../domain/ticket-subjects.ts';
import {
  SUPPORT_RATE_LIMITS,
  assertTicketEditable,
  ticketChanges,
  ticketMessages,
  ticketSearchKind,
  type NewTicketInput,
  type SupportMessage,
  type Ticket,
  type TicketHistoryEntry,
  type TicketSearch,
  type TicketUpdate,
} from '../domain/tickets.ts';
import { userMessages } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditHistory, AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { Mailer } from '../adapters/ports/mail.ts';
import { type BusinessMetrics, noMetrics } from '../adapters/ports/metrics.ts';
import type { EnsureCitizen, UserRepository } from '../adapters/ports/users.ts';
import type { NewTicket, StoredTicket, TicketChanges } from './repository.ts';

type PageQuery = { limit?: number; cursor?: string };

export interface TicketRepository {
  nextTicketId(): Promise<string>;
  createTicket(input: NewTicket, id: string): Promise<StoredTicket>;
  getTicketItem(id: string): Promise<StoredTicket | null>;
  /** null when the ticket is gone, no longer open, or changed since `current` was read (nothing written). */
  updateTicket(current: StoredTicket, changes: TicketChanges, now: string): Promise<StoredTicket | null>;
  listOpenTickets(page: PageQuery): Promise<Page<Ticket>>;
  countOpenTickets(): Promise<number>;
  listTicketsOfUser(userId: string, page: PageQuery): Promise<Page<Ticket>>;
  searchByFiscalCode(prefix: string, page: PageQuery): Promise<Page<Ticket>>;
  searchByText(prefix: string, page: PageQuery): Promise<Page<Ticket>>;
  /** false, and nothing counted, when the window already holds `max` messages. */
  countSupportMessage(userId: string, window: string, key: string, max: number, expiresAt: number): Promise<boolean>;
  uncountSupportMessage(userId: string, window: string, key: string): Promise<void>;
}

export interface TicketDeps {
  tickets: TicketRepository;
  users: Pick<UserRepository, 'getUserItem'>;
  services: { listServices(page: PageQuery): Promise<Page<Service>> };
  ensureCitizen: EnsureCitizen;
  mailer: Mailer;
  /** The council's support address (deployment setting SUPPORT_EMAIL). */
  supportAddress: () => string;
  audit: AuditLog;
  history: AuditHistory;
  clock: Clock;
  /** Told when a notification could not be sent (the ticket is kept: the office sees it in /lista_ticket). */
  onMailFailure?: (error: unknown, ticketId: string) => void;
  /** SupportMessages (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
}

const ENTITY = 'ticket';

export function makeTicketUseCases({
  tickets,
  users,
  services,
  ensureCitizen,
  mailer,
  supportAddress,
  audit,
  history,
  clock,
  onMailFailure,
  metrics = noMetrics,
}: TicketDeps) {
  const requireTicket = async (id: string) =>
    (await tickets.getTicketItem(id)) ?? Promise.reject(new NotFoundError(ticketMessages.notFound));
  const requireUser = async (id: string) =>
    (await users.getUserItem(id)) ?? Promise.reject(new NotFoundError(userMessages.notFound));

  /** The service names (bounded: at most 10 pages of 100). */
  async function serviceNames(): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 10; round++) {
      const page = await services.listServices({ limit: 100, cursor });
      names.push(...page.items.map((s) => s.name));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return names;
  }

  /** Counts the message in every window, or none: a full window gives back what the others took, then 429. */
  async function takeSupportAllowance(userId: string, now: Date) {
    const taken: { window: string; key: string }[] = [];
    for (const limit of SUPPORT_RATE_LIMITS) {
      const key = limit.key(now);
      const expiresAt = Math.floor(now.getTime() / 1000) + 2 * 24 * 3600;
      if (!(await tickets.countSupportMessage(userId, limit.window, key, limit.max, expiresAt))) {
        for (const t of taken) await tickets.uncountSupportMessage(userId, t.window, t.key);
        throw new TooManyRequestsError(limit.message);
      }
      taken.push({ window: limit.window, key });
    }
  }

  /**
   * The office's mail, whose reply-to is the address typed in the form (the office answers there), and the
   * citizen's receipt, sent only to the e-mail of the citizen's profile (none without one): the form's
   * address is never a recipient, so the council's mail cannot carry a text to an address of anyone's choosing.
   */
  async function notify(ticket: StoredTicket, message: SupportMessage, profileEmail: string | null) {
    const support = mailer.send({
      to: [supportAddress()],
      replyTo: [message.emailUser],
      subject: `[Ticket ${ticket.id}] ${message.subject}`,
      text: [
        `Nuova segnalazione dal portale dei servizi sociali (ticket n. ${ticket.id}).`,
        '',
        `Richiedente: ${ticket.richiedente}${ticket.fiscalCode ? ` (${ticket.fiscalCode})` : ''}`,
        `E-mail: ${message.emailUser}`,
        `Oggetto: ${message.subject}`,
        '',
        message.message,
      ].join('\n'),
    });
    const receipt = profileEmail
      ? mailer.send({
          to: [profileEmail],
          subject: `Abbiamo ricevuto la tua segnalazione (ticket n. ${ticket.id})`,
          text: [
            `Gentile ${ticket.richiedente},`,
            '',
            `abbiamo ricevuto la tua segnalazione "${message.subject}" (ticket n. ${ticket.id}). Ti risponderemo all’indirizzo indicato nel modulo: ${message.emailUser}.`,
            '',
            'Il tuo messaggio:',
            message.message,
            '',
            'Portale dei servizi sociali',
          ].join('\n'),
        })
      : null;
    for (const result of await Promise.allSettled([support, ...(receipt ? [receipt] : [])])) {
      if (result.status === 'rejected') onMailFailure?.(result.reason, ticket.id);
    }
  }

  const toHistoryEntry = (
    entry: Awaited<ReturnType<AuditHistory['historyOf']>>['items'][number],
  ): TicketHistoryEntry => ({
    at: entry.at,
    who: entry.who.fullName || entry.who.fiscalCode || entry.who.sub,
    role: entry.who.role,
    action: entry.action,
    changes: ticketChanges(entry.before as Partial<Ticket> | null, entry.after as Partial<Ticket> | null),
  });

  const publicTicket = ({ richiedenteCognome: _surname, origin: _origin, ...ticket }: StoredTicket): Ticket => ticket;

  return {
    /** The subjects the support form offers: the service names and 'Altro'. */
    supportSubjects: async () => ({ subjects: supportSubjects(await serviceNames()) }),

    /**
     * Part 2 §2.9: a support message becomes a ticket of the citizen (categoria = subject), an e-mail to
     * the council's support address and a receipt to the citizen. Checked first (subject, rate limit):
     * refused, it leaves nothing behind.
     */
    async sendSupportMessage(message: SupportMessage, actor: Actor): Promise<Ticket> {
      if (!supportSubjects(await serviceNames()).includes(message.subject)) {
        throw new ValidationError(ticketMessages.subject, { subject: ticketMessages.subject });
      }
      const userId = await ensureCitizen(actor);
      const user = await requireUser(userId);
      const now = clock.now();
      await takeSupportAllowance(userId, now);
      const lastName = user.lastName || actor.lastName;
      const created = await tickets.createTicket(
        {
          dataApertura: now.toISOString(),
          richiedente: `${user.firstName || actor.firstName} ${lastName}`.trim(),
          richiedenteCognome: lastName,
          categoria: message.subject,
          dettagli: message.message,
          assegnatoA: null,
          userId,
          fiscalCode: user.fiscalCode,
          emailUser: message.emailUser,
          origin: 'SUPPORT',
        },
        await tickets.nextTicketId(),
      );
      const ticket = publicTicket(created);
      await audit.record({ actor, entity: ENTITY, id: ticket.id, action: 'create', before: null, after: ticket }, now);
      metrics.count('SupportMessages', 1);
      await notify(created, message, user.email?.trim() || null);
      return ticket;
    },

    listMyTickets: async (page: PageQuery, actor: Actor) => tickets.listTicketsOfUser(await ensureCitizen(actor), page),

    /** A citizen reads only their own tickets: anyone else's is "not found". */
    async getTicket(id: string, actor: Actor): Promise<Ticket> {
      const ticket = await requireTicket(id);
      if (actor.role === 'CITIZEN' && (await ensureCitizen(actor)) !== ticket.userId)
        throw new NotFoundError(ticketMessages.notFound);
      return publicTicket(ticket);
    },

    listOpenTickets: (page: PageQuery) => tickets.listOpenTickets(page),

    countOpenTickets: async () => ({ count: await tickets.countOpenTickets() }),

    async listUserTickets(userId: string, page: PageQuery) {
      await requireUser(userId);
      return tickets.listTicketsOfUser(userId, page);
    },

    /** `cerca?q=` (README, "Tickets"): a ticket number, a fiscal-code prefix, or a surname or category prefix. */
    async searchTickets({ q, limit, cursor }: TicketSearch): Promise<Page<Ticket>> {
      const kind = ticketSearchKind(q);
      if (kind.kind === 'id') {
        if (cursor) return { items: [], nextCursor: null };
        const found = await tickets.getTicketItem(kind.id);
        return { items: found ? [publicTicket(found)] : [], nextCursor: null };
      }
      if (kind.kind === 'fiscalCode') return tickets.searchByFiscalCode(kind.prefix, { limit, cursor });
      if (!kind.prefix) return { items: [], nextCursor: null };
      return tickets.searchByText(kind.prefix, { limit, cursor });
    },

    /** An operator's ticket for a user (part 2 §2.14): no state choice, it starts Aperto. */
    async createTicket(input: NewTicketInput, actor: Actor): Promise<Ticket> {
      const user = await requireUser(input.userId);
      const now = clock.now();
      const created = await tickets.createTicket(
        {
          dataApertura: now.toISOString(),
          richiedente: `${user.firstName} ${user.lastName}`.trim(),
          richiedenteCognome: user.lastName,
          categoria: input.categoria,
          dettagli: input.dettagli,
          assegnatoA: input.assegnatoA,
          userId: user.id,
          fiscalCode: user.fiscalCode,
          emailUser: user.email ?? null,
          origin: 'OPERATOR',
        },
        await tickets.nextTicketId(),
      );
      const ticket = publicTicket(created);
      await audit.record({ actor, entity: ENTITY, id: ticket.id, action: 'create', before: null, after: ticket }, now);
      return ticket;
    },

    /**
     * An edit: state 0–3, assignee, category, details. Risolto and Chiuso are read-only (409). An edit of a
     * copy older than the stored ticket (another operator saved in between) is refused with 409, and the
     * write is conditional on the ticket read, so an edit racing another, or the ticket's closing, changes nothing.
     */
    async updateTicket(
      id: string,
      { ultimoAggiornamento: editedCopy, ...changes }: TicketUpdate,
      actor: Actor,
    ): Promise<Ticket> {
      const before = await requireTicket(id);
      assertTicketEditable(before);
      if (editedCopy !== undefined && editedCopy !== before.ultimoAggiornamento)
        throw new ConflictError(messages.staleRecord);
      const now = clock.now();
      const after = await tickets.updateTicket(before, changes, now.toISOString());
      if (!after) {
        assertTicketEditable(await requireTicket(id));
        throw new ConflictError(messages.staleRecord);
      }
      const [beforeTicket, afterTicket] = [publicTicket(before), publicTicket(after)];
      await audit.record(
        { actor, entity: ENTITY, id, action: 'update', before: beforeTicket, after: afterTicket },
        now,
      );
      return afterTicket;
    },

    /** Who changed what, and when: the ticket's audit entries, oldest first. */
    async ticketHistory(id: string, page: PageQuery): Promise<Page<TicketHistoryEntry>> {
      await requireTicket(id);
      const entries = await history.historyOf(ENTITY, id, page);
      return { items: entries.items.map(toHistoryEntry), nextCursor: entries.nextCursor };
    },
  };
}
