import { meSchema } from '../domain/profile.ts';
import { profileUpdateSchema } from '../domain/user-input.ts';
import { userSchema } from '../domain/users.ts';
import { type RouteDef } from '../http/route.ts';

/** Profile of whoever is signed in: the routes of the profile function (the full table is functions/routes.ts). */
export const profileRoutes = [
  {
    operationId: 'getMe',
    method: 'GET',
    path: '/api/me',
    resource: 'profile',
    access: 'signed-in',
    summary: 'Ruolo e dati della persona che ha eseguito il login',
    status: 200,
    response: meSchema,
  },
  {
    operationId: 'getProfile',
    method: 'GET',
    path: '/api/profile',
    resource: 'profile',
    access: ['CITIZEN'],
    summary: 'Il profilo del cittadino (creato al primo accesso)',
    status: 200,
    response: userSchema,
  },
  {
    operationId: 'updateProfile',
    method: 'PUT',
    path: '/api/profile',
    resource: 'profile',
    access: ['CITIZEN'],
    summary: 'Modifica del proprio profilo (nome, cognome e codice fiscale non modificabili)',
    body: profileUpdateSchema,
    status: 200,
    response: userSchema,
  },
] as const satisfies readonly RouteDef<'profile'>[];
