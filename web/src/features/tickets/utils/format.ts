/** The year in full: dateStyle 'short' writes '25/11/26'. */
const dateTime = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** An ISO instant as the office reads it: day and time in Europe/Rome ('25/11/2026, 14:05'). */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** Field names of the history, as the ticket page labels them. */
export const fieldLabel: Record<string, string> = { stato: 'Stato', categoria: 'Categoria', dettagli: 'Dettagli', assegnatoA: 'Assegnato a' };
