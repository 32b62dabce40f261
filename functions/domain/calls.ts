import * as z from 'zod/mini';
import { MAX_CALL_FILES } from './call-limits.ts';
import { bandSchema } from './bands.ts';
import { fileMessages, storedFileSchema, uploadedFileSchema } from './files.ts';
import { messages } from './messages.ts';
import { pageQuerySchema, requiredText } from './validation.ts';

export { CallState, type CallStateValue } from './call-limits.ts';
// The calls' rules, without zod (call-rules.ts), for the importers of this module.
export {
  assertCallTransition,
  callStateLabel,
  callStateLabels,
  callTransitions,
  canMoveCall,
  defaultCallName,
  nameSearchKey,
  remainingCallFiles,
} from './call-rules.ts';
import { callStateLabels } from './call-rules.ts';

/** Spec limits (constants only, so the web's first load need not build these schemas). */
export { BOARD_SIZE, CALLS_PAGE_SIZE, MAX_CALL_FILES, OPEN_CALLS_PAGE_SIZE } from './call-limits.ts';

const idText = z
  .string({ error: messages.required })
  .check(z.trim(), z.minLength(1, messages.required), z.maxLength(64));

const yearSchema = z
  .number({
    error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : messages.call.year),
  })
  .check(z.int(messages.call.year), z.gte(2000, messages.call.year), z.lte(2100, messages.call.year));

const stateSchema = z.number({ error: messages.call.state }).check(
  z.int(messages.call.state),
  z.refine((value) => value in callStateLabels, messages.call.state),
);

const filesSchema = z.array(uploadedFileSchema).check(z.maxLength(MAX_CALL_FILES, fileMessages.tooMany));

/** New call (part 2 §2.12, §5): serviceId, name, codAccertamento, codCapitolo, nomeMyPay required. */
export const callInputSchema = z.object({
  serviceId: idText,
  name: requiredText(200),
  /** Defaults to the current year. */
  year: z.optional(yearSchema),
  codAccertamento: requiredText(60),
  codCapitolo: requiredText(60),
  nomeMyPay: requiredText(120),
  bandsId: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(50)), []),
  /** Forms uploaded with POST /api/uploads (purpose 'call-form'). */
  files: z._default(filesSchema, []),
});
export type CallInput = z.output<typeof callInputSchema>;

/** Edit (part 2 §5): the same fields plus year and state; `files` are the NEW forms (5 minus those attached). */
export const callUpdateSchema = z.extend(callInputSchema, { year: yearSchema, state: stateSchema });
export type CallUpdate = z.output<typeof callUpdateSchema>;

export const callListQuerySchema = z.extend(pageQuerySchema, {
  name: z.optional(z.string().check(z.trim(), z.maxLength(200))),
});
export const openCallsQuerySchema = z.extend(pageQuerySchema, {
  serviceId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
});
export const callFileParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  fileId: z.string().check(z.minLength(1), z.maxLength(64)),
});

/** A stored file with its short-lived (5 minutes) link. */
export const linkedFileSchema = z.extend(storedFileSchema, { url: z.string() });
export type LinkedFile = z.output<typeof linkedFileSchema>;

const serviceRefSchema = z.object({ id: z.string(), name: z.string(), description: z.string() });

/** A row of a calls list. */
export const callSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  year: z.number(),
  state: z.number(),
  serviceId: z.string(),
  serviceName: z.string(),
  dataInsert: z.string(),
});
export type CallSummary = z.output<typeof callSummarySchema>;

/** What everyone may read of an OPEN call: the call, its service, its bands and the municipality's forms. */
export const publicCallSchema = z.extend(callSummarySchema, {
  service: serviceRefSchema,
  bands: z.array(bandSchema),
  announcementFiles: z.array(linkedFileSchema),
});
export type PublicCall = z.output<typeof publicCallSchema>;

/** The operator's call detail. */
export const callSchema = z.extend(publicCallSchema, {
  nomeMyPay: z.string(),
  codAccertamento: z.string(),
  codCapitolo: z.string(),
  bandsId: z.array(z.string()),
  /** How many citizens asked to join (the enrolled-users table comes with a later issue). */
  subscriptionCount: z.number(),
});
export type Call = z.output<typeof callSchema>;
