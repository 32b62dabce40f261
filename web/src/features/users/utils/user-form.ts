import { newUserSchema, profileUpdateSchema, userUpdateSchema } from '@domain/user-input';
import { DEFAULT_NATION, type User } from '@domain/users';
import { fieldErrors } from '@domain/validation';
import type * as z from 'zod/mini';
import { pickFieldErrors, type FieldErrors } from '@/components/form-fields/field-errors';
import type { FormValidation } from '@/components/form-fields';

/** The texts of the user form (new user, operator's edit, citizen's profile). */
export interface UserFormValues {
  firstName: string;
  lastName: string;
  fiscalCode: string;
  birthDate: string;
  email: string;
  emailPec: string;
  phoneNumber: string;
  address: string;
  addressNumber: string;
  cap: string;
  city: string;
  country: string;
  nation: string;
  municipioId: string;
}
export type UserField = keyof UserFormValues;
export const userFields: readonly UserField[] = [
  'firstName',
  'lastName',
  'fiscalCode',
  'birthDate',
  'email',
  'emailPec',
  'phoneNumber',
  'address',
  'addressNumber',
  'cap',
  'city',
  'country',
  'nation',
  'municipioId',
];
export type UserFormErrors = FieldErrors<UserField>;

export const emptyUserForm: UserFormValues = {
  firstName: '',
  lastName: '',
  fiscalCode: '',
  birthDate: '',
  email: '',
  emailPec: '',
  phoneNumber: '',
  address: '',
  addressNumber: '',
  cap: '',
  city: '',
  country: '',
  nation: DEFAULT_NATION,
  municipioId: '',
};

export function userToForm(user: User): UserFormValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    fiscalCode: user.fiscalCode,
    birthDate: user.birthDate ?? '',
    email: user.email ?? '',
    emailPec: user.emailPec ?? '',
    phoneNumber: user.phoneNumber ?? '',
    address: user.address ?? '',
    addressNumber: user.addressNumber ?? '',
    cap: user.cap ?? '',
    city: user.city ?? '',
    country: user.country ?? '',
    nation: user.nation ?? DEFAULT_NATION,
    municipioId: user.municipioId ?? '',
  };
}

function validateWith<S extends z.ZodMiniType>(
  schema: S,
  values: UserFormValues,
): FormValidation<UserField, z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, input: result.data };
  return { ok: false, errors: pickFieldErrors(fieldErrors(result.error), userFields).errors };
}

/** The shared schemas, the very ones the API applies. */
export const validateNewUser = (values: UserFormValues) => validateWith(newUserSchema, values);
export const validateUserUpdate = (values: UserFormValues) => validateWith(userUpdateSchema, values);
export const validateProfile = (values: UserFormValues) => validateWith(profileUpdateSchema, values);
