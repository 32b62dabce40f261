/**
 * The local sign-in provider's test identities, one per role of the spec. Fiscal codes are valid
 * (check character included); e-mail addresses use a reserved example domain.
 */
export interface TestIdentity {
  sub: string;
  givenName: string;
  familyName: string;
  fiscalCode: string;
  email: string;
  /** The role claim as the SPID/CIE gateway or the user pool would send it. */
  roles: string[];
  workingEntityId?: string;
  /** Shown after the name on the login button: "<full name> — <roleLabel>". */
  roleLabel: string;
}

export const identities: TestIdentity[] = [
  {
    sub: 'maria.rossi',
    givenName: 'Maria',
    familyName: 'Rossi',
    fiscalCode: 'RSSMRA85C52H501N',
    email: 'maria.rossi@example.it',
    roles: ['CITIZEN'],
    roleLabel: 'Cittadina con profilo completo',
  },
  {
    sub: 'giuseppe.verdi',
    givenName: 'Giuseppe',
    familyName: 'Verdi',
    fiscalCode: 'VRDGPP90P07F839R',
    email: 'giuseppe.verdi@example.it',
    roles: ['CITIZEN'],
    roleLabel: 'Cittadino al primo accesso',
  },
  {
    sub: 'laura.bianchi',
    givenName: 'Laura',
    familyName: 'Bianchi',
    fiscalCode: 'BNCLRA79H61F205F',
    email: 'laura.bianchi@comune.example.it',
    roles: ['OPERATOR'],
    roleLabel: 'Operatrice',
  },
  {
    sub: 'paolo.esposito',
    givenName: 'Paolo',
    familyName: 'Esposito',
    fiscalCode: 'SPSPLA68S02L219G',
    email: 'paolo.esposito@example.it',
    // A delegate who is also an operator: the delegate role wins, as the spec says.
    roles: ['OPERATOR', 'DELEGATE'],
    roleLabel: 'Delegato',
  },
  {
    sub: 'francesca.romano',
    givenName: 'Francesca',
    familyName: 'Romano',
    fiscalCode: 'RMNFNC82A70A944B',
    email: 'francesca.romano@comune.example.it',
    roles: [],
    workingEntityId: 'SERVIZI-SOCIALI-MUNICIPIO-1',
    roleLabel: 'Operatrice riconosciuta dall’ente di lavoro',
  },
  {
    // No record and no ISEE on the portal, a valid DSU at INPS (lib/local/inps-simulator.ts): she fetches it and applies.
    sub: 'chiara.neri',
    givenName: 'Chiara',
    familyName: 'Neri',
    fiscalCode: 'NRECHR88E45F205C',
    email: 'chiara.neri@example.it',
    roles: ['CITIZEN'],
    roleLabel: 'Cittadina senza ISEE',
  },
];

export const fullName = (identity: TestIdentity) => `${identity.givenName} ${identity.familyName}`;
/** The accessible name of the identity's button on the login page. */
export const loginButtonName = (identity: TestIdentity) => `${fullName(identity)} — ${identity.roleLabel}`;
