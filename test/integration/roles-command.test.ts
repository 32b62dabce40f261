/**
 * `npm run roles` (bin/roles.ts) against the local stack, as an engineer runs it against the cloud: the same
 * @aws-sdk/client-cognito-identity-provider code pointed at the local user pool (COGNITO_ENDPOINT), the table at
 * dynalite; no AWS. Then the person signs in again and /api/me shows the role (or no longer does).
 * The Cognito operations it sends are checked against AWS's API reference in test/integration/user-pool.test.ts
 * (API_ListUsers: filtering on `sub`, since "Custom attributes aren't searchable"; API_AdminGetUser,
 * API_AdminListGroupsForUser, API_AdminAddUserToGroup, API_AdminRemoveUserFromGroup,
 * API_AdminUpdateUserAttributes, API_AdminDeleteUserAttributes).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { LOCAL_USER_POOL_ID } from '../../lib/local/user-pool.ts';
import { request } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';
import { authorize, CookieBrowser, exchangeCode } from '../support/sign-in.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GIUSEPPE = 'VRDGPP90P07F839R';
// Each step starts the command in a new process (tsx compiles it on start): slow on a busy machine, not a timing check.
vi.setConfig({ testTimeout: 120_000 });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command in its own process, as `npm run roles -- <args>` does. */
function roles(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      path.join(root, 'node_modules/.bin/tsx'),
      ['bin/roles.ts', ...args],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          TABLE_NAME,
          USER_POOL_ID: LOCAL_USER_POOL_ID,
          DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
          COGNITO_ENDPOINT: inject('issuer'),
          AWS_REGION: 'eu-south-1',
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A new sign-in (a fresh browser, as after 'Esci'), then what /api/me says. */
async function signInAgain(sub: string) {
  const { accessToken } = await exchangeCode(
    await authorize({ issuer: inject('issuer'), appUrl: inject('appUrl'), sub }, new CookieBrowser()),
  );
  const me = await request('GET', '/api/me', { token: accessToken });
  expect(me.status).toBe(200);
  return { token: accessToken, me: me.json };
}

const roleEntries = () => localTable().auditOf('roles', GIUSEPPE);

afterAll(async () => {
  // The shared stack's Giuseppe is a citizen for the other test files, whatever happened here.
  await roles('revoke', GIUSEPPE, 'DELEGATE', '--by', 'pulizia del test');
  await roles('revoke', GIUSEPPE, 'OPERATOR', '--by', 'pulizia del test');
});

describe('npm run roles: refusals change nothing', () => {
  it('refuses a wrong fiscal code, an unknown role, a working entity without OPERATOR and a person who never signed in', async () => {
    await signInAgain('giuseppe.verdi');
    const auditBefore = (await roleEntries()).length;
    const groupsBefore = (await roles('list', GIUSEPPE)).stdout;

    const wrongCheck = await roles('grant', 'VRDGPP90P07F839X', 'OPERATOR');
    expect(wrongCheck.code).toBe(2);
    expect(wrongCheck.stderr).toContain('Il codice fiscale è errato!');
    expect(wrongCheck.stderr).toContain('Nessuna modifica.');
    // A month letter the Agenzia delle Entrate does not use (F), check character right for it: still refused.
    expect((await roles('grant', 'VRDGPP90F07F839B', 'OPERATOR')).stderr).toContain('Il codice fiscale è errato!');

    const unknownRole = await roles('grant', GIUSEPPE, 'ADMIN');
    expect(unknownRole.code).toBe(2);
    expect(unknownRole.stderr).toContain(
      'Ruolo sconosciuto «ADMIN»: i ruoli da concedere o togliere sono OPERATOR e DELEGATE.',
    );
    const citizen = await roles('revoke', GIUSEPPE, 'CITIZEN');
    expect(citizen.code).toBe(2);
    expect(citizen.stderr).toContain('è cittadino chiunque acceda con SPID o CIE');

    const entityForDelegate = await roles('grant', GIUSEPPE, 'DELEGATE', '--ente', 'ENTE-1');
    expect(entityForDelegate.code).toBe(2);
    expect(entityForDelegate.stderr).toContain(
      'L’ente di lavoro (--ente) si indica solo concedendo il ruolo OPERATOR.',
    );

    const stranger = randomFiscalCodeFrom();
    const neverSignedIn = await roles('grant', stranger, 'OPERATOR');
    expect(neverSignedIn.code).toBe(2);
    expect(neverSignedIn.stderr).toContain(`Nessun accesso al portale risulta per il codice fiscale ${stranger}`);

    const usage = await roles('grant', GIUSEPPE);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('npm run roles -- grant');

    expect((await roleEntries()).length).toBe(auditBefore);
    expect((await roles('list', GIUSEPPE)).stdout).toBe(groupsBefore);
    expect((await signInAgain('giuseppe.verdi')).me.role).toBe('CITIZEN');
  });
});

describe('npm run roles: Giuseppe Verdi, a citizen, becomes an operator and stops being one', () => {
  it('grants OPERATOR: the next sign-in is an operator’s, the token already issued is not; audited with who and before/after', async () => {
    const before = await signInAgain('giuseppe.verdi');
    expect(before.me.role).toBe('CITIZEN');
    const auditBefore = (await roleEntries()).length;

    const granted = await roles('grant', GIUSEPPE, 'OPERATOR', '--by', 'Ufficio sistemi informativi');
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`Giuseppe Verdi (${GIUSEPPE})`);
    expect(granted.stdout).toContain(
      'utente Cognito SpidCie_giuseppe.verdi: gruppi nessuno → OPERATOR; ente di lavoro nessuno; ruolo nel portale al prossimo accesso: OPERATOR',
    );
    expect(granted.stdout).toContain(
      "La persona deve uscire dal portale ('Esci') e accedere di nuovo con SPID o CIE: il ruolo vale dal prossimo accesso.",
    );

    // The token issued before still says citizen: the role comes with the next sign-in.
    expect((await request('GET', '/api/me', { token: before.token })).json.role).toBe('CITIZEN');
    const after = await signInAgain('giuseppe.verdi');
    expect(after.me).toMatchObject({ role: 'OPERATOR', fiscalCode: GIUSEPPE, userId: null });
    expect((await request('GET', '/api/users', { token: after.token })).status).toBe(200);
    expect((await request('GET', '/api/users', { token: before.token })).status).toBe(403);

    const entries = await roleEntries();
    expect(entries).toHaveLength(auditBefore + 1);
    const entry = entries.at(-1)!;
    expect(entry).toMatchObject({
      entity: 'roles',
      recordId: GIUSEPPE,
      action: 'update',
      before: { accounts: [{ username: 'SpidCie_giuseppe.verdi', groups: [], workingEntity: null, role: 'CITIZEN' }] },
      after: {
        accounts: [{ username: 'SpidCie_giuseppe.verdi', groups: ['OPERATOR'], workingEntity: null, role: 'OPERATOR' }],
      },
    });
    expect(entry.who.fullName).toMatch(/^Ufficio sistemi informativi \(locale:.+\)$/);

    // Granting again changes nothing and audits nothing.
    const again = await roles('grant', GIUSEPPE, 'OPERATOR');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nessuna modifica: aveva già il ruolo OPERATOR.');
    expect(await roleEntries()).toHaveLength(auditBefore + 1);
  });

  it('grants DELEGATE (the delegate role wins), then removes both: the removal takes effect at the next sign-in', async () => {
    expect((await roles('grant', GIUSEPPE, 'delegate')).code).toBe(0);
    const delegate = await signInAgain('giuseppe.verdi');
    expect(delegate.me.role).toBe('DELEGATE');

    expect((await roles('revoke', GIUSEPPE, 'DELEGATE')).code).toBe(0);
    const removed = await roles('revoke', GIUSEPPE, 'OPERATOR');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('gruppi OPERATOR → nessuno');
    expect(removed.stdout).toContain(
      "Ruolo OPERATOR tolto. Vale dal prossimo accesso: chi ha già fatto l'accesso conserva il ruolo finché il suo token non scade (al massimo 9 ore).",
    );

    // Within the token's life the removed role stays; the next sign-in is a citizen's again.
    expect((await request('GET', '/api/me', { token: delegate.token })).json.role).toBe('DELEGATE');
    const citizen = await signInAgain('giuseppe.verdi');
    expect(citizen.me).toMatchObject({ role: 'CITIZEN', fiscalCode: GIUSEPPE });
    expect((await request('GET', '/api/users', { token: citizen.token })).status).toBe(403);
  });

  it('grants OPERATOR with a working entity, and removing OPERATOR deletes the entity too (else it would keep him an operator)', async () => {
    const granted = await roles('grant', GIUSEPPE, 'OPERATOR', '--ente', 'SERVIZI-SOCIALI-MUNICIPIO-2');
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain('ente di lavoro nessuno → SERVIZI-SOCIALI-MUNICIPIO-2');
    expect((await signInAgain('giuseppe.verdi')).me).toMatchObject({
      role: 'OPERATOR',
      workingEntityId: 'SERVIZI-SOCIALI-MUNICIPIO-2',
    });

    expect((await roles('revoke', GIUSEPPE, 'OPERATOR')).stdout).toContain(
      'ente di lavoro SERVIZI-SOCIALI-MUNICIPIO-2 → nessuno',
    );
    expect((await signInAgain('giuseppe.verdi')).me).toMatchObject({ role: 'CITIZEN', workingEntityId: null });
    expect((await roleEntries()).at(-1)).toMatchObject({
      before: { accounts: [{ groups: ['OPERATOR'], workingEntity: 'SERVIZI-SOCIALI-MUNICIPIO-2' }] },
      after: { accounts: [{ groups: [], workingEntity: null, role: 'CITIZEN' }] },
    });
  });
});

describe('npm run roles: finding the person', () => {
  it('finds an operator who never had a citizen record, by the sign-in /api/me recorded', async () => {
    await signInAgain('laura.bianchi');
    const recorded = await localTable().item(keys.signIn('BNCLRA79H61F205F', 'laura.bianchi'));
    expect(recorded).toMatchObject({ sub: 'laura.bianchi', fiscalCode: 'BNCLRA79H61F205F' });
    // Recorded once: a later sign-in keeps the first one's time.
    await signInAgain('laura.bianchi');
    expect(await localTable().item(keys.signIn('BNCLRA79H61F205F', 'laura.bianchi'))).toEqual(recorded);
    const shown = await roles('list', 'bnclra79h61f205f');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Laura Bianchi (BNCLRA79H61F205F)');
    expect(shown.stdout).toContain(
      'utente Cognito SpidCie_laura.bianchi: gruppi OPERATOR; ente di lavoro nessuno; ruolo nel portale al prossimo accesso: OPERATOR',
    );
  });

  it('finds a citizen whose sign-in was never recorded by the subject of the record made at the first sign-in', async () => {
    // The records made before sign-ins were recorded: only the citizen record's subject knows the Cognito user.
    await localTable().deleteItem(keys.signIn(GIUSEPPE, 'giuseppe.verdi'));
    const shown = await roles('list', GIUSEPPE);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('utente Cognito SpidCie_giuseppe.verdi');
    await signInAgain('giuseppe.verdi');
  });
});
