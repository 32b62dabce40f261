import { getBands } from '@/features/bands/api/get-bands';
import { EditCallPage, NewCallPage } from '@/features/calls';
import { getServices } from '@/features/services/api/get-services';

/** A call's form chooses among the services and the bands (both lists are short: one page of 100). */
const loadCallChoices = async () => ({
  services: (await getServices({ limit: 100 })).items,
  bands: (await getBands({ limit: 100 })).items,
});

/** /lista_bandi/nuova_sessione (also under /servizi/visualizza_servizio). */
export const NewCallRoute = () => <NewCallPage loadChoices={loadCallChoices} />;

/** /lista_bandi/dettaglio_sessione/modifica_sessione. */
export const EditCallRoute = () => <EditCallPage loadChoices={loadCallChoices} />;
