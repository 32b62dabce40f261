import * as z from 'zod/mini';
import { roles } from './roles.ts';

/** What the signed-in person is, as the API sees it: the web builds its menus and routes from this. */
export const meSchema = z.object({
  role: z.enum(roles),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fiscalCode: z.nullable(z.string()),
  email: z.nullable(z.string()),
  workingEntityId: z.nullable(z.string()),
  /** The citizen's user record (created at the first sign-in); null for operators and delegates. */
  userId: z.nullable(z.string()),
  /** False while the citizen's profile misses a required field: the portal asks to complete it. */
  profileComplete: z.boolean(),
  /** The profile fields still missing ("user info is non-empty when the data is incomplete"). */
  missingFields: z.array(z.string()),
});
export type Me = z.output<typeof meSchema>;
