import { Button, CheckboxField, Flex, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import type { EnrolmentFilters as Filters } from '../api/types';
import { emptyFilters, parseIseeAbove } from '../utils/enrolment-format';

/**
 * The filters of 'Iscritti al bando' (spec part 2 §2.11): fiscal code, first and last name, 'ISEE maggiore di'
 * typed the Italian way, 'Confermati'. 'Cerca' applies them, 'Annulla' clears them.
 */
export function EnrolmentFilters({ filters, onSearch }: { filters: Filters; onSearch: (filters: Filters) => void }) {
  const [draft, setDraft] = useState<Filters>(filters);
  const [iseeError, setIseeError] = useState<string | null>(null);

  const search = (event: FormEvent) => {
    event.preventDefault();
    const above = parseIseeAbove(draft.iseeAbove);
    if (above !== null && Number.isNaN(above)) return setIseeError('Inserisci un importo valido (es. 12.000,50).');
    setIseeError(null);
    onSearch(draft);
  };
  const cancel = () => {
    setDraft(emptyFilters);
    setIseeError(null);
    onSearch(emptyFilters);
  };

  return (
    <form onSubmit={search} role="search" aria-label="Filtra gli iscritti" className="filters">
      <Flex
        direction={{ base: 'column', large: 'row' }}
        gap="small"
        alignItems={{ base: 'stretch', large: 'flex-end' }}
        wrap="wrap"
      >
        <TextField
          label="Codice fiscale"
          name="fiscalCode"
          size="small"
          autoComplete="off"
          value={draft.fiscalCode}
          onChange={(e) => setDraft({ ...draft, fiscalCode: e.target.value })}
        />
        <TextField
          label="Nome"
          name="firstName"
          size="small"
          autoComplete="off"
          value={draft.firstName}
          onChange={(e) => setDraft({ ...draft, firstName: e.target.value })}
        />
        <TextField
          label="Cognome"
          name="lastName"
          size="small"
          autoComplete="off"
          value={draft.lastName}
          onChange={(e) => setDraft({ ...draft, lastName: e.target.value })}
        />
        <TextField
          label="ISEE maggiore di (€)"
          name="iseeAbove"
          size="small"
          inputMode="decimal"
          autoComplete="off"
          value={draft.iseeAbove}
          onChange={(e) => setDraft({ ...draft, iseeAbove: e.target.value })}
          hasError={iseeError !== null}
          errorMessage={iseeError ?? undefined}
        />
        <CheckboxField
          name="confirmed"
          label="Confermati"
          value="true"
          checked={draft.confirmed}
          onChange={(e) => setDraft({ ...draft, confirmed: e.target.checked })}
        />
        <Button type="submit" variation="primary" size="small">
          Cerca
        </Button>
        <Button size="small" onClick={cancel}>
          Annulla
        </Button>
      </Flex>
    </form>
  );
}
