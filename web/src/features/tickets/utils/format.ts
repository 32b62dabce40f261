/** Field names of the history, as the ticket page labels them. */
export const fieldLabel: Record<string, string> = {
  stato: 'Stato',
  categoria: 'Categoria',
  dettagli: 'Dettagli',
  assegnatoA: 'Assegnato a',
};
