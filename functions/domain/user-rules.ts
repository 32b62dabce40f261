import { ConflictError } from './errors.ts';
import { toEuros } from './money.ts';

/**
 * Users (citizens) as the operators manage them and as a citizen keeps their own profile
 * (spec part 1 §2 'lista_utenti', part 2 §2.13, §3 and §5).
 * The rules, without zod (the API's schemas are in users.ts, which re-exports these).
 */
export const userMessages = {
  notFound: 'L’utente selezionato non esiste.',
  email: "Il formato dell'email non è corretto!",
  fiscalCode: 'Il codice fiscale è errato!',
  fiscalCodeTaken: 'Esiste già un utente con questo codice fiscale.',
  birthDate: 'Inserisci una data di nascita valida.',
  cap: 'Il CAP è formato da cinque cifre.',
  phone: 'Il numero di telefono può contenere un + iniziale seguito da 6 a 15 cifre.',
  province: 'Seleziona una provincia dall’elenco.',
  nation: 'Seleziona una nazione dall’elenco.',
  municipio: 'Seleziona un municipio dall’elenco.',
  hasLinkedData: 'Non è possibile cancellare un utente se ha dati collegati!',
  delegateReadOnly: 'Il delegato può solo consultare i dati.',
  noCitizenRecord: 'Il tuo profilo non è ancora stato creato: esegui di nuovo il login.',
} as const;

/** Spec part 1 §3: LOADED and SUSPEND seen, VALIDATED also occurs. */
export const userStates = ['VALIDATED', 'LOADED', 'SUSPEND'] as const;
export type UserState = (typeof userStates)[number];

/** The five municipi of the city (spec part 2 §3, §9). Their neighbourhoods are not in the spec. */
export const municipi = [
  { id: '1', name: 'Municipio 1' },
  { id: '2', name: 'Municipio 2' },
  { id: '3', name: 'Municipio 3' },
  { id: '4', name: 'Municipio 4' },
  { id: '5', name: 'Municipio 5' },
] as const;

/** A user's nation when none is given (part 2 §9). */
export const DEFAULT_NATION = 'IT';

/** The spec's "simple address pattern". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Part 1 §5: an optional plus followed by 6 to 15 digits. */
export const PHONE_PATTERN = /^\+?\d{6,15}$/;

export const isValidEmail = (email: string | null | undefined) => !!email && email.includes('@');
export const isValidPhone = (phone: string | null | undefined) =>
  !!phone && PHONE_PATTERN.test(phone.replace(/\s/g, ''));

/** What search compares: lower case, no accents, letters and digits only ("D'Amico" → "damico"). */
export function normaliseSearchText(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}
/**
 * The sort key of the "last and first name together" search (issue 13): the two normalised names
 * interleaved letter by letter ("rossi", "maria" → "rmoasrsiia"), '_' standing for a letter past the end of
 * the shorter one. A search for last-name prefix L and first-name prefix F is then one begins_with on the
 * interleaving of their first min(|L|, |F|) letters, so it reads (almost) only the matching users, whatever
 * the two prefixes' lengths.
 */
export function interleaveNames(last: string, first: string): string {
  let key = '';
  for (let i = 0; i < Math.max(last.length, first.length); i++) key += (last[i] ?? '_') + (first[i] ?? '_');
  return key;
}
/** E-mail addresses are compared lower-cased and trimmed. */
export const normaliseEmail = (text: string | null | undefined) => (text ?? '').trim().toLowerCase();
/** Phone numbers are compared on their digits only ("+39 333 1234567" → "393331234567"). */
export const normalisePhone = (text: string | null | undefined) => (text ?? '').replace(/\D/g, '');

/** A citizen's residence as the user record keeps it (and the MyPay CSV sends it for the payer). */
export interface PostalAddress {
  address?: string | null;
  addressNumber?: string | null;
  cap?: string | null;
  city?: string | null;
  /** Province code (two letters). */
  country?: string | null;
  /** Country code, default IT. */
  nation?: string | null;
}

/** Fields the 'Profile' rules require: while one is missing the portal asks the citizen to complete it. */
export const profileRequiredFields = [
  'email',
  'birthDate',
  'address',
  'addressNumber',
  'cap',
  'city',
  'country',
  'nation',
] as const;
export function missingProfileFields(user: Partial<Record<(typeof profileRequiredFields)[number], unknown>>): string[] {
  return profileRequiredFields.filter((field) => {
    const value = user[field];
    return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  });
}

/**
 * The as-written confirmation of the status toggle (part 2 §4): the new state is named SOSPESO when the
 * current state is VALIDATED, otherwise ATTIVO (a LOADED user is "activated" by 'SOSPENDI': kept as is).
 */
export function statusToggle(state: UserState) {
  const label = state === 'SUSPEND' ? 'ABILITA' : 'SOSPENDI';
  const newStateName = state === 'VALIDATED' ? 'SOSPESO' : 'ATTIVO';
  return {
    label,
    suspend: state !== 'SUSPEND',
    message: `Confermi di voler cambiare lo stato dell'utente in ${newStateName}?`,
  };
}

export const municipioName = (id: string | null | undefined) => municipi.find((m) => m.id === id)?.name ?? null;

/**
 * The user's state follows their newest ISEE (part 1 §3): LOADED while it waits for an operator,
 * VALIDATED otherwise; a suspended user stays suspended until an operator re-enables them.
 */
export function userStateAfterIsee(current: UserState, newestIsee: { state: string } | null): UserState {
  if (current === 'SUSPEND') return 'SUSPEND';
  return newestIsee?.state === 'LOADED' ? 'LOADED' : 'VALIDATED';
}

/** 'SOSPENDI' suspends; 'ABILITA' re-enables, and a re-enabled user is LOADED again if their newest ISEE still waits. */
export function userStateAfterToggle(suspended: boolean, newestIsee: { state: string } | null): UserState {
  return suspended ? 'SUSPEND' : userStateAfterIsee('VALIDATED', newestIsee);
}

/** What the user's record keeps of their newest ISEE (users list column, delete rule). */
export interface LastIsee {
  id: string;
  valueCents: number;
  year: number;
  state: string;
  hasFile: boolean;
  /** Its expiry (yyyy-mm-dd), when known: the fee of a month counts it only until then (domain/fee.ts). */
  scadenza?: string | null;
}

/** The facts the delete rule looks at: the ISEE summary on the record, and whether ISEE or subscriptions exist. */
export interface LinkedData {
  iseeCount?: number;
  lastIsee?: LastIsee | null;
  hasIsee?: boolean;
  hasSubscriptions?: boolean;
}

export const hasLinkedData = (user: LinkedData): boolean =>
  (user.iseeCount ?? 0) > 0 || !!user.lastIsee || !!user.hasIsee || !!user.hasSubscriptions;

/** A user can be deleted only without linked data (ISEE, subscriptions): otherwise 409 with the spec's message. */
export function assertUserDeletable(user: LinkedData): void {
  if (hasLinkedData(user)) throw new ConflictError(userMessages.hasLinkedData);
}

/** A stored user as the API shows it (amounts in euro, empty texts as null): users.ts's `User`, checked where a repository answers one. */
export function toUser(item: Record<string, any>) {
  const text = (key: string) => (typeof item[key] === 'string' && item[key] !== '' ? (item[key] as string) : null);
  const lastIsee = item.lastIsee
    ? {
        id: item.lastIsee.id,
        value: toEuros(item.lastIsee.valueCents),
        year: item.lastIsee.year,
        state: item.lastIsee.state,
        hasFile: !!item.lastIsee.hasFile,
      }
    : null;
  return {
    id: item.id,
    firstName: item.firstName ?? '',
    lastName: item.lastName ?? '',
    fiscalCode: item.fiscalCode,
    birthDate: text('birthDate'),
    email: text('email'),
    emailPec: text('emailPec'),
    phoneNumber: text('phoneNumber'),
    address: text('address'),
    addressNumber: text('addressNumber'),
    cap: text('cap'),
    city: text('city'),
    country: text('country'),
    nation: text('nation'),
    municipioId: text('municipioId'),
    municipio: municipioName(item.municipioId),
    state: (item.state ?? 'VALIDATED') as UserState,
    dataInsert: item.dataInsert,
    lastIsee,
    profileComplete: missingProfileFields(item).length === 0,
    hasLinkedData: hasLinkedData(item),
  };
}
