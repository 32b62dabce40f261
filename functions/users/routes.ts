import { idParamsSchema, pageOf } from '../domain/validation.ts';
import { newUserSchema, userUpdateSchema } from '../domain/user-input.ts';
import { countSchema, userSchema, userSearchSchema, userStatusSchema } from '../domain/users.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** Users (operators; delegates read only): the routes of the users function (the full table is functions/routes.ts). */
export const userRoutes = [
  { operationId: 'searchUsers', method: 'GET', path: '/api/users', resource: 'users', access: ['OPERATOR', 'DELEGATE'], summary: 'Ricerca utenti per inizio di nome, cognome, codice fiscale, e-mail, telefono e "Da validare" (15 per pagina, senza scansioni)', query: userSearchSchema, status: 200, response: pageOf(userSchema) },
  { operationId: 'countLoadedUsers', method: 'GET', path: '/api/users/loaded/count', resource: 'users', access: ['OPERATOR', 'DELEGATE'], summary: 'Numero di utenti in stato LOADED (badge del pannello)', status: 200, response: countSchema },
  { operationId: 'getUser', method: 'GET', path: '/api/users/{id}', resource: 'users', access: ['OPERATOR', 'DELEGATE'], summary: 'Dati di un utente', params: idParamsSchema, status: 200, response: userSchema },
  { operationId: 'createUser', method: 'POST', path: '/api/users', resource: 'users', access: OPERATOR, summary: 'Nuovo utente', body: newUserSchema, status: 201, response: userSchema },
  { operationId: 'updateUser', method: 'PUT', path: '/api/users/{id}', resource: 'users', access: OPERATOR, summary: 'Modifica dei dati di un utente', params: idParamsSchema, body: userUpdateSchema, status: 200, response: userSchema },
  { operationId: 'setUserStatus', method: 'PUT', path: '/api/users/{id}/status', resource: 'users', access: OPERATOR, summary: 'Sospensione (SOSPENDI) o riattivazione (ABILITA) di un utente', params: idParamsSchema, body: userStatusSchema, status: 200, response: userSchema },
  { operationId: 'deleteUser', method: 'DELETE', path: '/api/users/{id}', resource: 'users', access: OPERATOR, summary: 'Cancellazione di un utente senza dati collegati', params: idParamsSchema, status: 204 },
] as const satisfies readonly RouteDef<'users'>[];
