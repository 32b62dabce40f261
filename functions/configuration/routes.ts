import { configurationSchema, configurationViewSchema } from '../domain/configuration-schemas.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** The MyPay configuration (/configurazione, part 2 §2.15): operators only (delegates are denied the page). */
export const configurationRoutes = [
  {
    operationId: 'getConfiguration',
    method: 'GET',
    path: '/api/configuration',
    resource: 'configuration',
    access: OPERATOR,
    summary: 'Configurazione MyPay (null finché non è salvata)',
    status: 200,
    response: configurationViewSchema,
  },
  {
    operationId: 'updateConfiguration',
    method: 'PUT',
    path: '/api/configuration',
    resource: 'configuration',
    access: OPERATOR,
    summary: 'Modifica della configurazione MyPay (tutti gli otto campi)',
    body: configurationSchema,
    status: 200,
    response: configurationViewSchema,
  },
] as const satisfies readonly RouteDef<'configuration'>[];
