import { randomFiscalCodeFrom } from './fiscal-codes.ts';

/**
 * The body of 'Nuovo utente' (POST /api/users) for a resident of the demo council: a fresh fiscal code unless one is
 * given, and no e-mail unless one is given (null as the form sends an emptied field).
 */
export const newUserBody = (fields: {
  firstName: string;
  lastName: string;
  email?: string | null;
  fiscalCode?: string;
}) => ({
  ...fields,
  birthDate: '1980-01-01',
  address: 'Via Roma',
  addressNumber: '1',
  cap: '00100',
  city: 'Roma',
  country: 'RM',
  nation: 'IT',
  municipioId: '1',
  fiscalCode: fields.fiscalCode ?? randomFiscalCodeFrom(),
});
