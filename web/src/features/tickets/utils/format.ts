const dateTime = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', dateStyle: 'short', timeStyle: 'short' });

/** An ISO instant as the office reads it: day and time in Europe/Rome. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** Field names of the history, as the ticket page labels them. */
export const fieldLabel: Record<string, string> = { stato: 'Stato', categoria: 'Categoria', dettagli: 'Dettagli', assegnatoA: 'Assegnato a' };
