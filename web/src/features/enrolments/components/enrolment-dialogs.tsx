import { Button, Flex, Text, TextField } from '@aws-amplify/ui-react';
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog } from '@/components/dialog';
import type { EnrolmentRow } from '../api/types';
import { hoursQuestion, parseHoursInput, parseRankingInput } from '../utils/enrolment-format';
import { formatHours } from '@domain/fee';

const fullName = (row: EnrolmentRow) => `${row.firstName} ${row.lastName}`;
const hoursText = (value: number | null) => (value === null ? '' : formatHours(value).replace(/\./g, ''));

/** The weekly hours (or rides) of a row, as both modals ask them. */
function HoursField({
  serviceName,
  value,
  onChange,
  error,
  autoFocus = false,
}: {
  serviceName: string;
  value: string;
  onChange: (text: string) => void;
  error?: string;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label={hoursQuestion(serviceName)}
      name="weeklyHour"
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hasError={Boolean(error)}
      errorMessage={error}
      isRequired
      autoFocus={autoFocus}
    />
  );
}

function FormButtons({ submit, busy, onCancel }: { submit: string; busy: boolean; onCancel: () => void }) {
  return (
    <Flex justifyContent="flex-end" gap="small">
      <Button onClick={onCancel} isDisabled={busy}>
        Annulla
      </Button>
      <Button type="submit" variation="primary" isLoading={busy} loadingText="Attendere...">
        {submit}
      </Button>
    </Flex>
  );
}

/** A modal about one row: open while there is a row, its form mounted afresh for each row. */
function RowDialog({
  row,
  title,
  onClose,
  children,
}: {
  row: EnrolmentRow | null;
  title: string;
  onClose: () => void;
  children: (row: EnrolmentRow) => ReactNode;
}) {
  return (
    <Dialog open={row !== null} title={title} onClose={onClose}>
      {row && <Fragment key={row.id}>{children(row)}</Fragment>}
    </Dialog>
  );
}

export interface ConfirmEnrolmentDialogProps {
  row: EnrolmentRow | null;
  serviceName: string;
  busy: boolean;
  onConfirm: (row: EnrolmentRow, weeklyHour: number) => void;
  onCancel: () => void;
}

/** 'Conferma iscrizione': asks the weekly hours (or rides for taxi services); nothing is sent without them (spec part 2 §5). */
export const ConfirmEnrolmentDialog = ({ row, onCancel, ...props }: ConfirmEnrolmentDialogProps) => (
  <RowDialog row={row} title="Conferma iscrizione" onClose={onCancel}>
    {(open) => <HoursForm row={open} onCancel={onCancel} {...props} />}
  </RowDialog>
);

function HoursForm({
  row,
  serviceName,
  busy,
  onConfirm,
  onCancel,
}: Omit<ConfirmEnrolmentDialogProps, 'row'> & { row: EnrolmentRow }) {
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
        <HoursField serviceName={serviceName} value={text} onChange={setText} error={error ?? undefined} autoFocus />
        <FormButtons submit="Conferma" busy={busy} onCancel={onCancel} />
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
export const EditEnrolmentDialog = ({ row, onCancel, ...props }: EditEnrolmentDialogProps) => (
  <RowDialog row={row} title="Modifica iscrizione" onClose={onCancel}>
    {(open) => <EditForm row={open} onCancel={onCancel} {...props} />}
  </RowDialog>
);

function EditForm({
  row,
  serviceName,
  busy,
  onSave,
  onCancel,
}: Omit<EditEnrolmentDialogProps, 'row'> & { row: EnrolmentRow }) {
  const [ranking, setRanking] = useState(row.rankingScore === null ? '' : String(row.rankingScore));
  const [hours, setHours] = useState(hoursText(row.weeklyHour));
  const [errors, setErrors] = useState<{ ranking?: string; hours?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const score = parseRankingInput(ranking);
    const weekly = parseHoursInput(hours);
    const found = {
      ranking: 'error' in score ? score.error : undefined,
      hours: 'error' in weekly ? weekly.error : undefined,
    };
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
        <HoursField serviceName={serviceName} value={hours} onChange={setHours} error={errors.hours} />
        <FormButtons submit="Salva" busy={busy} onCancel={onCancel} />
      </Flex>
    </form>
  );
}
