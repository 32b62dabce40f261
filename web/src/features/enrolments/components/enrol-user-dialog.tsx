import { Button, Flex, Text, TextField } from '@aws-amplify/ui-react';
import type { User } from '@domain/users';
import { useEffect, useState, type FormEvent } from 'react';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { Dialog } from '@/components/dialog';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { ApiError, errorMessage } from '@/lib/api';

const FIELDS = [
  ['firstName', 'Nome'],
  ['lastName', 'Cognome'],
  ['fiscalCode', 'Codice fiscale'],
  ['email', 'E-mail'],
  ['phoneNumber', 'Telefono'],
] as const;

/** What the modal searches by, as the users' list does ('Da validare' stays off here). */
export type UserSearch = Record<(typeof FIELDS)[number][0], string> & { loaded: boolean };

/**
 * The users' search and record, which belong to the users feature: the app hands their loader in, and it
 * runs when the modal first needs them, not with the call's page.
 */
export type LoadUsers = () => Promise<{
  searchUsers: (filters: UserSearch, cursor: null) => Promise<{ items: User[] }>;
  getUser: (id: string) => Promise<User>;
}>;

const noFilters: UserSearch = {
  firstName: '',
  lastName: '',
  fiscalCode: '',
  email: '',
  phoneNumber: '',
  loaded: false,
};

export interface EnrolUserDialogProps {
  open: boolean;
  callId: string;
  /** A user to offer at once (the one just created in the other tab: `?enrolUserId=`). */
  preselectedUserId: string | null;
  busy: boolean;
  onEnrol: (user: User) => void;
  onClose: () => void;
  loadUsers: LoadUsers;
}

/**
 * 'Iscrivi utente': search the users (first name, last name, fiscal code, e-mail, phone), 'Iscrivi' on a
 * result; 'Nuovo utente' opens the new-user form in a new tab, which brings the operator back here with
 * the new user ready to enrol.
 */
export function EnrolUserDialog({
  open,
  callId,
  preselectedUserId,
  busy,
  onEnrol,
  onClose,
  loadUsers,
}: EnrolUserDialogProps) {
  const [draft, setDraft] = useState<UserSearch>(noFilters);
  const [results, setResults] = useState<User[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open || !preselectedUserId) return;
    let current = true;
    setSearching(true);
    loadUsers()
      .then(({ getUser }) => getUser(preselectedUserId))
      .then(
        (user) => current && (setResults([user]), setSearching(false)),
        (failure: unknown) =>
          current &&
          (setError(failure instanceof ApiError ? failure.message : 'Utente non trovato.'), setSearching(false)),
      );
    return () => {
      current = false;
    };
  }, [open, preselectedUserId, loadUsers]);

  const search = async (event: FormEvent) => {
    event.preventDefault();
    setSearching(true);
    setError(null);
    try {
      const { searchUsers } = await loadUsers();
      setResults((await searchUsers(draft, null)).items);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSearching(false);
    }
  };

  const close = () => {
    setDraft(noFilters);
    setResults(null);
    setError(null);
    onClose();
  };

  const columns: DataTableColumn<User>[] = [
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (u) => u.fiscalCode, isRowHeader: true, noWrap: true },
    { id: 'firstName', header: 'Nome', cell: (u) => u.firstName },
    { id: 'lastName', header: 'Cognome', cell: (u) => u.lastName },
    { id: 'email', header: 'E-mail', cell: (u) => u.email ?? '' },
    {
      id: 'enrol',
      header: 'Azioni',
      align: 'end',
      noWrap: true,
      cell: (u) => (
        <Button
          size="small"
          variation="primary"
          isDisabled={busy}
          aria-label={`Iscrivi ${u.firstName} ${u.lastName}`}
          onClick={() => onEnrol(u)}
        >
          Iscrivi
        </Button>
      ),
    },
  ];

  const newUserUrl = `${paths.newUser}?callId=${encodeURIComponent(callId)}`;
  return (
    <Dialog open={open} title="Iscrivi utente" onClose={close} wide actions={<Button onClick={close}>Chiudi</Button>}>
      <Flex direction="column" gap="medium">
        <form onSubmit={(event) => void search(event)} role="search" aria-label="Ricerca utenti da iscrivere">
          <Flex
            direction={{ base: 'column', medium: 'row' }}
            gap="small"
            alignItems={{ base: 'stretch', medium: 'flex-end' }}
            wrap="wrap"
          >
            {FIELDS.map(([key, label]) => (
              <TextField
                key={key}
                name={key}
                label={label}
                size="small"
                autoComplete="off"
                value={draft[key]}
                onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                flex="1"
              />
            ))}
            <Button type="submit" size="small" variation="primary">
              Cerca
            </Button>
          </Flex>
        </form>
        <Text>
          L’utente non è registrato?{' '}
          <a href={newUserUrl} target="_blank" rel="noopener">
            Nuovo utente<span className="visually-hidden"> (si apre in una nuova scheda)</span>
          </a>
        </Text>
        <PageAlert message={error} autoHideMs={null} onDismiss={() => setError(null)} />
        {searching ? (
          <LoadingState label="Ricerca in corso..." />
        ) : (
          results !== null && (
            <DataTable
              caption="Utenti trovati"
              columns={columns}
              rows={results}
              rowKey={(u) => u.id}
              emptyText="Nessun utente trovato."
            />
          )
        )}
      </Flex>
    </Dialog>
  );
}
