import { Button, CheckboxField, Flex, Text, TextField, VisuallyHidden } from '@aws-amplify/ui-react';
import { iseeStateShortLabel } from '@domain/isee';
import { formatEuro } from '@domain/money';
import { isValidEmail, isValidPhone, type User } from '@domain/users';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { DataTableColumn } from '@/components/data-table';
import { ListPage, rowActionsColumn } from '@/components/list-page';
import { useConfirmedDelete } from '@/components/use-confirmed-delete';
import { paths } from '@/config/paths';
import { AttachmentIcon } from '@/components/attachment-icon';
import { useAuth } from '@/lib/auth';
import { useDeleteUser } from '../api/delete-user';
import { useUsers, type UserFilters } from '../api/search-users';
import { formatDay } from '@/lib/dates';

const TEXT_FILTERS = [
  ['firstName', 'Nome'],
  ['lastName', 'Cognome'],
  ['fiscalCode', 'Codice fiscale'],
  ['email', 'E-mail'],
  ['phoneNumber', 'Telefono'],
] as const;

function filtersFrom(params: URLSearchParams): UserFilters {
  return {
    firstName: params.get('firstName') ?? '',
    lastName: params.get('lastName') ?? '',
    fiscalCode: params.get('fiscalCode') ?? '',
    email: params.get('email') ?? '',
    phoneNumber: params.get('phoneNumber') ?? '',
    loaded: params.get('loaded') === 'true',
  };
}

/** A ✓ or ✗ read as 'valido' / 'non valido'. */
function ValidityIcon({ valid, what }: { valid: boolean; what: string }) {
  return (
    <span
      className={valid ? 'validity validity--ok' : 'validity validity--ko'}
      title={`${what} ${valid ? 'valido' : 'non valido'}`}
    >
      <span aria-hidden="true">{valid ? '✓' : '✗'}</span>
      <VisuallyHidden>{`${what} ${valid ? 'valido' : 'non valido'}`}</VisuallyHidden>
    </span>
  );
}

function LastIseeCell({ user }: { user: User }) {
  const isee = user.lastIsee;
  if (!isee) return <Text as="span">Nessun ISEE</Text>;
  return (
    <span className="last-isee">
      {formatEuro(isee.value)} ({isee.year}){' '}
      <span className={`isee-state isee-state--${isee.state.toLowerCase()}`}>{iseeStateShortLabel(isee.state)}</span>{' '}
      <AttachmentIcon hasFile={isee.hasFile} />
    </span>
  );
}

/**
 * /lista_utenti: filters mirrored in the query string (Enter searches), fifteen users per page, rows
 * green for LOADED and grey for SUSPEND, delete only for users without linked data.
 */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const applied = filtersFrom(params);
  const [draft, setDraft] = useState<UserFilters>(applied);
  const users = useUsers(applied);
  const deletion = useConfirmedDelete<User>(useDeleteUser(), 'L’utente è stato cancellato.', users.reload);
  const { me } = useAuth();
  const readOnly = me?.role !== 'OPERATOR';

  const search = (event?: FormEvent) => {
    event?.preventDefault();
    const next = new URLSearchParams();
    for (const [key] of TEXT_FILTERS) if (draft[key].trim()) next.set(key, draft[key].trim());
    if (draft.loaded) next.set('loaded', 'true');
    setParams(next);
  };

  const columns: DataTableColumn<User>[] = [
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (u) => u.fiscalCode, noWrap: true, isRowHeader: true },
    { id: 'firstName', header: 'Nome', cell: (u) => u.firstName },
    { id: 'lastName', header: 'Cognome', cell: (u) => u.lastName },
    { id: 'isee', header: 'Ultimo ISEE', cell: (u) => <LastIseeCell user={u} /> },
    {
      id: 'contacts',
      header: 'E-mail e telefono',
      cell: (u) => (
        <Flex gap="xs">
          <ValidityIcon valid={isValidEmail(u.email)} what="E-mail" />
          <ValidityIcon valid={isValidPhone(u.phoneNumber)} what="Telefono" />
        </Flex>
      ),
    },
    { id: 'dataInsert', header: 'Data registrazione', cell: (u) => formatDay(u.dataInsert, ''), noWrap: true },
    rowActionsColumn((u) => ({
      detailTo: `${paths.userRecord}?citizen=${encodeURIComponent(u.id)}`,
      detailLabel: `Dettaglio utente ${u.firstName} ${u.lastName}`,
      deleteLabel: `Elimina utente ${u.firstName} ${u.lastName}`,
      onDelete: () => deletion.ask(u),
      deleteDisabled: readOnly,
      deleteBlockedReason: u.hasLinkedData ? 'Non è possibile cancellare un utente se ha dati collegati!' : undefined,
    })),
  ];

  const filters = (
    <form onSubmit={search} role="search" aria-label="Ricerca utenti" className="filters">
      <Flex
        direction={{ base: 'column', large: 'row' }}
        gap="small"
        alignItems={{ base: 'stretch', large: 'flex-end' }}
        wrap="wrap"
      >
        {TEXT_FILTERS.map(([key, label]) => (
          <TextField
            key={key}
            name={key}
            label={label}
            size="small"
            value={draft[key]}
            onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            flex="1"
            autoComplete="off"
          />
        ))}
        <CheckboxField
          name="loaded"
          label="Da validare"
          value="true"
          checked={draft.loaded}
          onChange={(e) => setDraft({ ...draft, loaded: e.target.checked })}
        />
        <Button type="submit" variation="primary" size="small">
          Cerca
        </Button>
      </Flex>
    </form>
  );

  return (
    <ListPage
      title="Lista utenti"
      newItem={readOnly ? undefined : { to: paths.newUser, label: 'Nuovo Utente' }}
      filters={filters}
      list={users}
      deletion={deletion}
      table={{
        caption: 'Elenco degli utenti',
        columns,
        rowClassName: (u) =>
          u.state === 'LOADED' ? 'row--loaded' : u.state === 'SUSPEND' ? 'row--suspended' : undefined,
        emptyText: 'Nessun utente trovato.',
      }}
      paginationLabel="Paginazione degli utenti"
      deleteDialog={(u) => ({
        title: `Rimozione utente: ${u.firstName} ${u.lastName}`,
        message: 'Confermi di voler cancellare l’utente selezionato?',
      })}
    />
  );
}
