import type { ReactNode } from 'react';
import type { To } from 'react-router';
import { ErrorState } from './error-state';
import { LoadingState } from './loading-state';
import type { AsyncState } from '@/lib/queries';

export interface RecordContentProps<T extends { id: string }> {
  /** The record's id from the address (`?range=`, `?id=`, `?citizen=`). */
  id: string | null;
  /** The record's query (`useBand(id)`, ...). */
  record: AsyncState<T>;
  /** Shown when the address names no record, e.g. 'La fascia ISEE selezionata non esiste.' */
  missingMessage: string;
  /** The way out of an error: the list. */
  backTo: To;
  backLabel: string;
  /** The page of the loaded record. */
  children: (record: T) => ReactNode;
}

/**
 * A page about one record: an error with a link back when the address names none or the API refuses it,
 * the spinner until the record of this id is in, then the record's content.
 */
export function RecordContent<T extends { id: string }>({
  id,
  record,
  missingMessage,
  backTo,
  backLabel,
  children,
}: RecordContentProps<T>) {
  if (!id) return <ErrorState message={missingMessage} backTo={backTo} backLabel={backLabel} />;
  if (record.error) return <ErrorState message={record.error.message} backTo={backTo} backLabel={backLabel} />;
  if (!record.data || record.data.id !== id) return <LoadingState />;
  return <>{children(record.data)}</>;
}
