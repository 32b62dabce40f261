import * as z from 'zod/mini';
import { ValidationError } from './errors.ts';
import { fill, messages } from './messages.ts';

/**
 * The payment-platform (MyPay) configuration of the council (part 2 §2.15, §3; reference.md "MyPay"):
 * the eight values every import CSV row needs. One schema, used by the API and by the /configurazione form.
 */
export const configurationFields = [
  'azione',
  'codUfficio',
  'codeConfig',
  'flgGeneraIuv',
  'tipoDovuto',
  'tipoIdentificativoUnivoco',
  'datiSpecificiRiscossione',
  'tipoVersamento',
] as const;
export type ConfigurationField = (typeof configurationFields)[number];

/** MyPay's import actions (reference.md): I insert, M modify, A cancel. */
export const mypayActions = ['I', 'M', 'A'] as const;
export type MyPayAction = (typeof mypayActions)[number];
/** F natural person, G company (reference.md). */
export const payerKinds = ['F', 'G'] as const;

const required = (max: number) =>
  z
    .string({ error: messages.required })
    .check(z.trim(), z.minLength(1, messages.required), z.maxLength(max, fill(messages.tooLong, { max })));

const choice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.pipe(
    z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required)),
    z.enum(values, { error: message }),
  );

export const configurationSchema = z.object({
  /** The default action of a new row (each position's own action wins: see debt-positions.ts). */
  azione: choice(mypayActions, messages.configuration.azione),
  /** Optional in MyPay's bilancio, required by the spec's form (all eight non-empty). */
  codUfficio: required(64),
  codeConfig: required(64),
  flgGeneraIuv: z.boolean({ error: messages.required }),
  /** ≤ 64 (reference.md), configured per entity on MyPay. */
  tipoDovuto: required(64),
  tipoIdentificativoUnivoco: choice(payerKinds, messages.configuration.tipoIdentificativoUnivoco),
  /** ≤ 140, required by MyPay (reference.md). */
  datiSpecificiRiscossione: required(140),
  /** e.g. ALL. */
  tipoVersamento: required(64),
});
export type Configuration = z.output<typeof configurationSchema>;

/** GET /api/configuration: null until an operator saves it. */
export const configurationViewSchema = z.object({
  configuration: z.nullable(configurationSchema),
  updatedAt: z.nullable(z.string()),
});
export type ConfigurationView = z.output<typeof configurationViewSchema>;

/** The configuration the export reads: every field present and valid, or the list of what is missing. */
export function checkConfiguration(
  stored: unknown,
): { ok: true; configuration: Configuration } | { ok: false; missing: ConfigurationField[] } {
  const result = configurationSchema.safeParse(stored ?? {});
  if (result.success) return { ok: true, configuration: result.data };
  const missing = [...new Set(result.error.issues.map((issue) => issue.path[0] as ConfigurationField))];
  return { ok: false, missing };
}

/** The configuration as stored (functions/configuration/repository.ts). */
export interface StoredConfiguration {
  values: Partial<Configuration>;
  updatedAt: string;
}

/** What the export reads: the complete configuration, or a 400 'Configurazione MyPay incompleta…' naming the missing fields. */
export function completeConfiguration(stored: Pick<StoredConfiguration, 'values'> | null): Configuration {
  const checked = checkConfiguration(stored?.values);
  if (checked.ok) return checked.configuration;
  throw new ValidationError(fill(messages.configuration.incomplete, { fields: checked.missing.join(', ') }));
}
