import { ValidationError } from './errors.ts';
import { fill, messages } from './messages.ts';

/**
 * The payment-platform (MyPay) configuration of the council (part 2 §2.15, §3; reference.md "MyPay"):
 * the eight values every import CSV row needs. Its rules live here, without zod, so the export's task function
 * applies them without carrying a schema library; configuration-schemas.ts gives the API and the /configurazione
 * form the same rules as a schema.
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

export interface Configuration {
  /** The default action of a new row (each position's own action wins: see debt-positions.ts). */
  azione: MyPayAction;
  /** Optional in MyPay's bilancio, required by the spec's form (all eight non-empty). */
  codUfficio: string;
  codeConfig: string;
  flgGeneraIuv: boolean;
  /** ≤ 64 (reference.md), configured per entity on MyPay. */
  tipoDovuto: string;
  tipoIdentificativoUnivoco: (typeof payerKinds)[number];
  /** ≤ 140, required by MyPay (reference.md). */
  datiSpecificiRiscossione: string;
  /** e.g. ALL. */
  tipoVersamento: string;
}

/** The longest text each free field takes. */
export const configurationMaxLengths = {
  codUfficio: 64,
  codeConfig: 64,
  tipoDovuto: 64,
  datiSpecificiRiscossione: 140,
  tipoVersamento: 64,
} as const;

/** The fields with fixed values, and the message when the value is another. */
export const configurationChoices = {
  azione: { values: mypayActions, message: messages.configuration.azione },
  tipoIdentificativoUnivoco: { values: payerKinds, message: messages.configuration.tipoIdentificativoUnivoco },
} as const;

/** What is wrong with one field's value (its Italian message), or its value trimmed. */
function checkField(
  field: ConfigurationField,
  value: unknown,
): { ok: true; value: string | boolean } | { ok: false; message: string } {
  if (field === 'flgGeneraIuv')
    return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: messages.required };
  if (typeof value !== 'string' || !value.trim()) return { ok: false, message: messages.required };
  const text = value.trim();
  if (field === 'azione' || field === 'tipoIdentificativoUnivoco') {
    const { values, message } = configurationChoices[field];
    return (values as readonly string[]).includes(text) ? { ok: true, value: text } : { ok: false, message };
  }
  const max = configurationMaxLengths[field];
  return text.length <= max ? { ok: true, value: text } : { ok: false, message: fill(messages.tooLong, { max }) };
}

/** The configuration the export reads: every field present and valid, or the list of what is missing. */
export function checkConfiguration(
  stored: unknown,
): { ok: true; configuration: Configuration } | { ok: false; missing: ConfigurationField[] } {
  const values = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const configuration: Record<string, string | boolean> = {};
  const missing: ConfigurationField[] = [];
  for (const field of configurationFields) {
    const checked = checkField(field, values[field]);
    if (checked.ok) configuration[field] = checked.value;
    else missing.push(field);
  }
  return missing.length
    ? { ok: false, missing }
    : { ok: true, configuration: configuration as unknown as Configuration };
}

/** GET /api/configuration: null until an operator saves it. */
export interface ConfigurationView {
  configuration: Configuration | null;
  updatedAt: string | null;
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
