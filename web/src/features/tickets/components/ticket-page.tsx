import { Button, Card, Flex, Heading, SelectField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import {
  isTicketReadOnly,
  newTicketSchema,
  ticketMessages,
  ticketStateLabel,
  ticketUpdateSchema,
  type Ticket,
} from '@domain/tickets';
import { fieldErrors } from '@domain/validation';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBreadcrumbQuery } from '@/components/breadcrumb-query';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { ErrorState } from '@/components/error-state';
import { readOnlyFieldProps, useFieldValues, useFocusFirstInvalid } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { toApiError } from '@/lib/api';
import { useTicket } from '../api/get-ticket';
import { useTicketHistory } from '../api/get-ticket-history';
import { createTicket, updateTicket } from '../api/save-ticket';
import { formatDateTime } from '@/lib/dates';
import { fieldLabel } from '../utils/format';
import { TICKET_DETAIL_PATH } from './tickets-table';

type Field = 'stato' | 'categoria' | 'dettagli' | 'assegnatoA';

/**
 * /lista_utenti/dati_utente/ticket/dettaglio: ?id= shows and edits a ticket (state 0–3, assignee, category,
 * details; read-only once Risolto or Chiuso) with its history; ?userId= creates one (no state choice).
 */
export function TicketPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const userId = params.get('userId');
  const ticket = useTicket(id);
  // 'Dati utente' and 'Ticket utente' above link to the ticket's citizen (the one a new ticket is for).
  const owner = id ? ticket.data?.userId : userId;
  useBreadcrumbQuery({ citizen: owner, userId: owner });
  // Kept here: the form below is re-created when the reloaded ticket arrives, and the message must outlive it.
  const [saved, setSaved] = useState<string | null>(null);
  if (!id) {
    return userId ? <TicketForm userId={userId} /> : <ErrorState message={ticketMessages.notFound} />;
  }
  if (ticket.error) return <ErrorState message={ticket.error.message} />;
  if (!ticket.data) return <LoadingState />;
  return (
    <TicketForm
      key={ticket.data.ultimoAggiornamento}
      ticket={ticket.data}
      saved={saved}
      onSaved={() => {
        setSaved('Il ticket è stato aggiornato.');
        ticket.reload();
      }}
      onDismissSaved={() => setSaved(null)}
    />
  );
}

function TicketForm({
  ticket,
  userId,
  saved = null,
  onSaved,
  onDismissSaved,
}: {
  ticket?: Ticket;
  userId?: string;
  saved?: string | null;
  onSaved?: () => void;
  onDismissSaved?: () => void;
}) {
  const navigate = useNavigate();
  const readOnly = !!ticket && isTicketReadOnly(ticket.stato);
  const { values, setErrors, bind } = useFieldValues<Field>({
    stato: String(ticket?.stato ?? 0),
    categoria: ticket?.categoria ?? '',
    dettagli: ticket?.dettagli ?? '',
    assegnatoA: ticket?.assegnatoA ?? '',
  });
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const owner = ticket?.userId ?? userId!;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const common = { categoria: values.categoria, dettagli: values.dettagli, assegnatoA: values.assegnatoA };
    // An edit names the copy it was made on: if another operator saved since, the API refuses it (409).
    const parsed = ticket
      ? ticketUpdateSchema.safeParse({
          ...common,
          stato: Number(values.stato),
          ultimoAggiornamento: ticket.ultimoAggiornamento,
        })
      : newTicketSchema.safeParse({ ...common, userId: owner });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid();
      return;
    }
    setBusy(true);
    try {
      if (ticket) {
        await updateTicket(ticket.id, parsed.data as Parameters<typeof updateTicket>[1]);
        onSaved?.();
      } else {
        const created = await createTicket(parsed.data as Parameters<typeof createTicket>[0]);
        navigate(`${TICKET_DETAIL_PATH}?id=${encodeURIComponent(created.id)}`);
      }
    } catch (error) {
      const apiError = toApiError(error);
      if (Object.keys(apiError.fieldErrors).length) setErrors(apiError.fieldErrors);
      else setAlert(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  const fieldProps = (field: Field) => ({ ...bind(field), ...readOnlyFieldProps(readOnly) });
  return (
    <Flex direction="column" gap="large">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1}>{ticket ? `Ticket ${ticket.id}` : 'Nuovo ticket'}</Heading>
        <Flex gap="small" wrap="wrap">
          <ButtonLink to={paths.tickets}>Lista ticket</ButtonLink>
          <ButtonLink to={`/lista_utenti/dati_utente/ticket?userId=${encodeURIComponent(owner)}`}>
            Ticket dell’utente
          </ButtonLink>
        </Flex>
      </Flex>
      {ticket && (
        <Card variation="outlined">
          <dl className="ticket-summary">
            <dt>Richiedente</dt>
            <dd>
              {ticket.richiedente}
              {ticket.fiscalCode ? ` (${ticket.fiscalCode})` : ''}
            </dd>
            <dt>E-mail</dt>
            <dd>{ticket.emailUser ?? '—'}</dd>
            <dt>Data apertura</dt>
            <dd>{formatDateTime(ticket.dataApertura)}</dd>
            <dt>Ultimo aggiornamento</dt>
            <dd>{formatDateTime(ticket.ultimoAggiornamento)}</dd>
            <dt>Stato</dt>
            <dd>
              <strong>{ticketStateLabel(ticket.stato)}</strong>
            </dd>
          </dl>
        </Card>
      )}
      {readOnly && (
        <PageAlert
          variation="info"
          message="Il ticket è risolto o chiuso: è in sola lettura."
          autoHideMs={null}
          isDismissible={false}
        />
      )}
      <PageAlert message={alert} autoHideMs={null} onDismiss={() => setAlert(null)} />
      <PageAlert variation="success" message={saved} onDismiss={() => onDismissSaved?.()} />
      <form
        ref={formRef}
        onSubmit={(e) => void submit(e)}
        noValidate
        aria-label={ticket ? `Modifica ticket ${ticket.id}` : 'Nuovo ticket'}
      >
        <Flex direction="column" gap="medium">
          {ticket && (
            <SelectField {...fieldProps('stato')} label="Stato" isDisabled={readOnly}>
              {[0, 1, 2, 3].map((s) => (
                <option key={s} value={String(s)}>
                  {ticketStateLabel(s)}
                </option>
              ))}
            </SelectField>
          )}
          <TextField {...fieldProps('assegnatoA')} label="Assegnato a" />
          <TextField {...fieldProps('categoria')} label="Categoria" isRequired />
          <TextAreaField {...fieldProps('dettagli')} label="Dettagli" isRequired rows={6} />
          {!readOnly && (
            <Flex>
              <Button type="submit" variation="primary" isLoading={busy} loadingText="Salvataggio…">
                {ticket ? 'Salva' : 'Crea ticket'}
              </Button>
            </Flex>
          )}
        </Flex>
      </form>
      {ticket && <TicketHistory ticket={ticket} />}
    </Flex>
  );
}

function TicketHistory({ ticket }: { ticket: Ticket }) {
  const history = useTicketHistory(ticket.id, ticket.ultimoAggiornamento);
  return (
    <Card variation="outlined">
      <Heading level={2} marginBottom="small">
        Storico
      </Heading>
      {history.error ? (
        <ErrorState message={history.error.message} />
      ) : !history.isLoaded ? (
        <LoadingState />
      ) : (
        <ol className="ticket-history">
          {history.items.map((entry, index) => (
            <li key={`${entry.at}-${index}`}>
              <Text>
                <strong>{formatDateTime(entry.at)}</strong> — {entry.who}:{' '}
                {entry.action === 'create' ? 'ha aperto il ticket' : 'ha modificato il ticket'}
              </Text>
              {entry.action !== 'create' && entry.changes.length > 0 && (
                <ul>
                  {entry.changes.map((change) => (
                    <li key={change.field}>
                      {fieldLabel[change.field] ?? change.field}: {change.before ?? '—'} → {change.after ?? '—'}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      <CursorPagination {...history.pagination} label="Paginazione dello storico" />
    </Card>
  );
}
