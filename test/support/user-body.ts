import { randomFiscalCode } from './isee.ts';

/** The body of 'Nuovo utente' (POST /api/users) for a resident of the demo council, with a fresh fiscal code. */
export const newUserBody = (names: { firstName: string; lastName: string; email?: string }) => ({
  ...names,
  birthDate: '1980-01-01',
  address: 'Via Roma',
  addressNumber: '1',
  cap: '00100',
  city: 'Roma',
  country: 'RM',
  nation: 'IT',
  municipioId: '1',
  fiscalCode: randomFiscalCode(),
});
