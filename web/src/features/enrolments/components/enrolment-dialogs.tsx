import { Button, Flex, Text, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/dialog';
import type { EnrolmentRow } from '../api/types';
import { formatHours, hoursQuestion, parseHoursInput, parseRankingInput } from '../utils/enrolment-format';

const fullName = (row: EnrolmentRow) => `${row.firstName} ${row.lastName}`;
const hoursText = (value: number | null) => (value === null ? '' : formatHours(value).replace(/\./g, ''));

export interface ConfirmEnrolmentDialogProps {
  row: EnrolmentRow | null;
  serviceName: string;
  busy: boolean;
  onConfirm: (row: EnrolmentRow, weeklyHour: number) => void;
  onCancel: () => void;
}

/** 'Conferma iscrizione': asks the weekly hours (or rides for taxi services); nothing is sent without them (spec part 2 §5). */
export function ConfirmEnrolmentDialog({ row, serviceName, busy, onConfirm, onCancel }: ConfirmEnrolmentDialogProps) {
  return (
    <Dialog open={row !== null} title="Conferma iscrizione" onClose={onCancel}>
      {row && <HoursForm key={row.id} row={row} serviceName={serviceName} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />}
    </Dialog>
  );
}

function HoursForm({ row, serviceName, busy, onConfirm, onCancel }: Omit<ConfirmEnrolmentDialogProps, 'row'> & { row: EnrolmentRow }) {
  const [text, setText] = useState(hoursText(row.weeklyHour));
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseHoursInput(text);
    if ('error' in parsed) return setError(parsed.error);
    onConfirm(row, parsed.value);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Conferma iscrizione">
      <Flex direction="column" gap="medium">
        <Text>
          Confermi l’iscrizione di <strong>{fullName(row)}</strong> ({row.fiscalCode})?
        </Text>
        <TextField
          label={hoursQuestion(serviceName)}
          name="weeklyHour"
          inputMode="decimal"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
          hasError={error !== null}
          errorMessage={error ?? undefined}
          isRequired
          autoFocus
        />
        <Flex justifyContent="flex-end" gap="small">
          <Button onClick={onCancel} isDisabled={busy}>
            Annulla
          </Button>
          <Button type="submit" variation="primary" isLoading={busy} loadingText="Attendere...">
            Conferma
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

export interface EditEnrolmentDialogProps {
  row: EnrolmentRow | null;
  serviceName: string;
  busy: boolean;
  /** Only what changed is sent: the ranking and/or the hours. */
  onSave: (row: EnrolmentRow, change: { rankingScore?: number; weeklyHour?: number }) => void;
  onCancel: () => void;
}

/** 'Modifica iscrizione': ranking score (required integer) and hours (decimal). */
export function EditEnrolmentDialog({ row, serviceName, busy, onSave, onCancel }: EditEnrolmentDialogProps) {
  return (
    <Dialog open={row !== null} title="Modifica iscrizione" onClose={onCancel}>
      {row && <EditForm key={row.id} row={row} serviceName={serviceName} busy={busy} onSave={onSave} onCancel={onCancel} />}
    </Dialog>
  );
}

function EditForm({ row, serviceName, busy, onSave, onCancel }: Omit<EditEnrolmentDialogProps, 'row'> & { row: EnrolmentRow }) {
  const [ranking, setRanking] = useState(row.rankingScore === null ? '' : String(row.rankingScore));
  const [hours, setHours] = useState(hoursText(row.weeklyHour));
  const [errors, setErrors] = useState<{ ranking?: string; hours?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const score = parseRankingInput(ranking);
    const weekly = parseHoursInput(hours);
    const found = { ranking: 'error' in score ? score.error : undefined, hours: 'error' in weekly ? weekly.error : undefined };
    setErrors(found);
    if ('error' in score || 'error' in weekly) return;
    const change: { rankingScore?: number; weeklyHour?: number } = {};
    if (score.value !== row.rankingScore) change.rankingScore = score.value;
    if (weekly.value !== row.weeklyHour) change.weeklyHour = weekly.value;
    onSave(row, change);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Modifica iscrizione">
      <Flex direction="column" gap="medium">
        <Text>
          <strong>{fullName(row)}</strong> ({row.fiscalCode})
        </Text>
        <TextField
          label="Punteggio in graduatoria"
          name="rankingScore"
          inputMode="numeric"
          autoComplete="off"
          value={ranking}
          onChange={(event) => setRanking(event.target.value)}
          hasError={Boolean(errors.ranking)}
          errorMessage={errors.ranking}
          isRequired
          autoFocus
        />
        <TextField
          label={hoursQuestion(serviceName)}
          name="weeklyHour"
          inputMode="decimal"
          autoComplete="off"
          value={hours}
          onChange={(event) => setHours(event.target.value)}
          hasError={Boolean(errors.hours)}
          errorMessage={errors.hours}
          isRequired
        />
        <Flex justifyContent="flex-end" gap="small">
          <Button onClick={onCancel} isDisabled={busy}>
            Annulla
          </Button>
          <Button type="submit" variation="primary" isLoading={busy} loadingText="Attendere...">
            Salva
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
