import * as z from 'zod/mini';
import { isValidFiscalCode } from './fiscal-code.ts';
import { messages } from './messages.ts';
import { COUNTRY_CODES as countryCodes, PROVINCE_CODES as provinceCodes } from './place-codes.ts';
import { formulaMessage, startsLikeFormula } from './spreadsheet-cells.ts';
import { EMAIL_PATTERN, PHONE_PATTERN, municipi, userMessages } from './users.ts';

/**
 * What a form or an API client sends to create or change a user (part 2 §5), with the province and
 * country lists they are checked against. Kept apart from users.ts so a Lambda that only reads users
 * does not carry these schemas and lists.
 */

/** 'Il campo non può essere vuoto!' for a missing or blank text. */
const required = (max: number) =>
  z
    .string({ error: messages.required })
    .check(
      z.trim(),
      z.minLength(1, messages.required),
      z.maxLength(max, `Il campo può contenere al massimo ${max} caratteri.`),
    );
const optional = (max: number) =>
  z.pipe(
    z.nullish(z.string().check(z.trim(), z.maxLength(max, `Il campo può contenere al massimo ${max} caratteri.`))),
    z.transform((value) => (value ? value : null)),
  );

/** Names, addresses, cities and e-mails end up in the operators' downloads: none may start like a formula. */
const notFormula = (value: string | null) => value === null || !startsLikeFormula(value);
const text = (max: number) => required(max).check(z.refine(notFormula, formulaMessage));

const email = optional(254).check(
  z.refine((value) => value === null || EMAIL_PATTERN.test(value), userMessages.email),
  z.refine(notFormula, formulaMessage),
);
const phone = z
  .pipe(
    optional(20),
    z.transform((value) => (value ? value.replace(/\s/g, '') : null)),
  )
  .check(z.refine((value) => value === null || PHONE_PATTERN.test(value), userMessages.phone));

const fiscalCode = z
  .pipe(
    z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required)),
    z.transform((value) => value.toUpperCase()),
  )
  .check(z.refine((value) => value.length === 16 && isValidFiscalCode(value), userMessages.fiscalCode));

/** yyyy-mm-dd, a real day, not in the future and not before 1900. */
export function isValidBirthDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return value >= '1900-01-01' && date.getTime() <= Date.now();
}
const birthDate = required(10).check(z.refine(isValidBirthDate, userMessages.birthDate));

/** The address and the rest shared by the three forms. */
const addressFields = {
  birthDate,
  address: text(200),
  addressNumber: required(20),
  cap: required(5).check(z.refine((value) => /^\d{5}$/.test(value), userMessages.cap)),
  city: text(100),
  /** The province (spec: "country (province code)"). */
  country: required(2).check(z.refine((value) => provinceCodes.has(value), userMessages.province)),
  /** The nation, ISO code, default IT. */
  nation: required(2).check(z.refine((value) => countryCodes.has(value), userMessages.nation)),
  emailPec: email,
  phoneNumber: phone,
};

const municipioId = z
  .pipe(
    z.nullish(z.string().check(z.trim())),
    z.transform((value) => (value ? value : null)),
  )
  .check(z.refine((value) => value === null || municipi.some((m) => m.id === value), userMessages.municipio));

/**
 * New user by an operator (part 2 §5 'New user'): required firstName, lastName, birthDate, fiscalCode,
 * address, addressNumber, cap, city, country, nation and municipio; email, emailPec, phoneNumber optional.
 */
export const newUserSchema = z.object({
  firstName: text(100),
  lastName: text(100),
  fiscalCode,
  email,
  ...addressFields,
  municipioId: z.string({ error: messages.required }).check(
    z.trim(),
    z.minLength(1, messages.required),
    z.refine((value) => municipi.some((m) => m.id === value), userMessages.municipio),
  ),
});
export type NewUserInput = z.output<typeof newUserSchema>;

/** User edit by an operator (part 2 §5): everything but email, emailPec, phoneNumber, municipio and state required. */
export const userUpdateSchema = z.object({
  firstName: text(100),
  lastName: text(100),
  fiscalCode,
  email,
  ...addressFields,
  municipioId,
});
export type UserUpdateInput = z.output<typeof userUpdateSchema>;

/**
 * The citizen's own profile (part 2 §5 'Profile'): as the operator's edit, but the e-mail is required,
 * and first name, last name and fiscal code are not editable (they come from SPID/CIE).
 */
export const profileUpdateSchema = z.object({
  email: text(254).check(z.refine((value) => EMAIL_PATTERN.test(value), userMessages.email)),
  ...addressFields,
  municipioId,
});
export type ProfileUpdateInput = z.output<typeof profileUpdateSchema>;
