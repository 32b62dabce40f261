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
  /**
   * The user pool groups the identity is in when it first signs in (what an engineer gave it with `npm run roles`
   * before; citizens have none): lib/local/user-pool.ts makes the user with them and the working entity.
   */
  groups: string[];
  /** The user's `custom:working_entity` attribute: an operator recognised by their working entity. */
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
    groups: [],
    roleLabel: 'Cittadina con profilo completo',
  },
  {
    sub: 'giuseppe.verdi',
    givenName: 'Giuseppe',
    familyName: 'Verdi',
    fiscalCode: 'VRDGPP90P07F839R',
    email: 'giuseppe.verdi@example.it',
    groups: [],
    roleLabel: 'Cittadino al primo accesso',
  },
  {
    sub: 'laura.bianchi',
    givenName: 'Laura',
    familyName: 'Bianchi',
    fiscalCode: 'BNCLRA79H61F205F',
    email: 'laura.bianchi@comune.example.it',
    groups: ['OPERATOR'],
    roleLabel: 'Operatrice',
  },
  {
    sub: 'paolo.esposito',
    givenName: 'Paolo',
    familyName: 'Esposito',
    fiscalCode: 'SPSPLA68S02L219G',
    email: 'paolo.esposito@example.it',
    // A delegate who is also an operator: the delegate role wins, as the spec says.
    groups: ['OPERATOR', 'DELEGATE'],
    roleLabel: 'Delegato',
  },
  {
    sub: 'francesca.romano',
    givenName: 'Francesca',
    familyName: 'Romano',
    fiscalCode: 'RMNFNC82A70A944B',
    email: 'francesca.romano@comune.example.it',
    groups: [],
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
    groups: [],
    roleLabel: 'Cittadina senza ISEE',
  },
];

export const fullName = (identity: TestIdentity) => `${identity.givenName} ${identity.familyName}`;
/** The accessible name of the identity's button on the login page. */
export const loginButtonName = (identity: TestIdentity) => `${fullName(identity)} — ${identity.roleLabel}`;
