import * as z from 'zod/mini';
import {
  configurationChoices,
  configurationMaxLengths,
  type Configuration,
  type ConfigurationView,
} from './configuration.ts';
import { fill, messages } from './messages.ts';

/** The configuration's API payloads and the /configurazione form's check: the rules of configuration.ts as a schema. */

const required = (max: number) =>
  z
    .string({ error: messages.required })
    .check(z.trim(), z.minLength(1, messages.required), z.maxLength(max, fill(messages.tooLong, { max })));

const choice = <T extends readonly [string, ...string[]]>({ values, message }: { values: T; message: string }) =>
  z.pipe(
    z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required)),
    z.enum(values, { error: message }),
  );

export const configurationSchema = z.object({
  azione: choice(configurationChoices.azione),
  codUfficio: required(configurationMaxLengths.codUfficio),
  codeConfig: required(configurationMaxLengths.codeConfig),
  flgGeneraIuv: z.boolean({ error: messages.required }),
  tipoDovuto: required(configurationMaxLengths.tipoDovuto),
  tipoIdentificativoUnivoco: choice(configurationChoices.tipoIdentificativoUnivoco),
  datiSpecificiRiscossione: required(configurationMaxLengths.datiSpecificiRiscossione),
  tipoVersamento: required(configurationMaxLengths.tipoVersamento),
}) satisfies z.ZodMiniType<Configuration>;

export const configurationViewSchema = z.object({
  configuration: z.nullable(configurationSchema),
  updatedAt: z.nullable(z.string()),
}) satisfies z.ZodMiniType<ConfigurationView>;
