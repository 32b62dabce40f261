import * as z from 'zod';
import { roles } from './roles.ts';

/** What the signed-in person is, as the API sees it: the web builds its menus and routes from this. */
export const meSchema = z.object({
  role: z.enum(roles),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fiscalCode: z.string().nullable(),
  email: z.string().nullable(),
  workingEntityId: z.string().nullable(),
});
export type Me = z.output<typeof meSchema>;
