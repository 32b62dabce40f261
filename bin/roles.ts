/**
 * `npm run roles`: grants or removes a role of the portal (OPERATOR, DELEGATE; an operator's working entity) by
 * fiscal code, finding the person's Cognito users through the portal's records of who signed in
 * (functions/users/role-grants.ts). Audited (entity `roles`, the fiscal code) in the name of whoever runs it.
 *
 *   npm run roles -- grant  <codice fiscale> OPERATOR [--ente <ente di lavoro>] [--by "<nome>"]
 *   npm run roles -- grant  <codice fiscale> DELEGATE [--by "<nome>"]
 *   npm run roles -- revoke <codice fiscale> OPERATOR|DELEGATE [--by "<nome>"]
 *   npm run roles -- list   <codice fiscale>
 *
 * In the cloud: TABLE_NAME and USER_POOL_ID (the outputs PortaleData.TableName and PortaleAuth.UserPoolId),
 * AWS_REGION and the engineer's AWS credentials; who ran it is their identity (STS GetCallerIdentity), with
 * `--by` as a name beside it. `--local`: the portal of `npm start` on this machine (PORT), its local user pool.
 * Exit code 0 done (or nothing to change), 2 refused (bad input, unknown person: nothing changed), 1 failed.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ACCESS_TOKEN_TTL_SECONDS, REGION, TABLE_NAME, issuerUrl, localConfig } from '../lib/local/config.ts';
import { LOCAL_USER_POOL_ID } from '../lib/local/user-pool.ts';
import { untracedFunctionEnv } from '../lib/local/untraced-env.ts';
import type { Actor } from '../functions/domain/roles.ts';
import type { AccountRoles, PersonRoles, RoleChange } from '../functions/users/role-grants.ts';

const USAGE = `Uso:
  npm run roles -- grant  <codice fiscale> OPERATOR [--ente <ente di lavoro>] [--by "<nome>"]
  npm run roles -- grant  <codice fiscale> DELEGATE [--by "<nome>"]
  npm run roles -- revoke <codice fiscale> OPERATOR|DELEGATE [--by "<nome>"]
  npm run roles -- list   <codice fiscale>
Nel cloud: TABLE_NAME, USER_POOL_ID, AWS_REGION e le credenziali AWS di chi lo esegue.
Con --local: il portale avviato con "npm start" su questa macchina (PORT).`;

const SESSION_HOURS = ACCESS_TOKEN_TTL_SECONDS / 3600;

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      ente: { type: 'string' },
      by: { type: 'string' },
      local: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  refuse(`${(error as Error).message}\n\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [action, fiscalCode, role, ...extra] = positionals;
const expected = action === 'list' ? 2 : 3;
if (!['grant', 'revoke', 'list'].includes(action ?? '') || positionals.length !== expected) {
  refuse(
    `${action && !['grant', 'revoke', 'list'].includes(action) ? `Azione sconosciuta «${action}».\n` : ''}${extra.length ? `Argomenti in più: ${extra.join(' ')}.\n` : ''}${USAGE}`,
  );
}

if (values.local) {
  // The local stack of `npm start`: its DynamoDB (dynalite's port) and its user pool, served by the sign-in provider.
  const config = localConfig();
  process.env.TABLE_NAME ||= TABLE_NAME;
  process.env.USER_POOL_ID ||= LOCAL_USER_POOL_ID;
  process.env.DYNAMODB_ENDPOINT ||= `http://127.0.0.1:${config.dynamoPort}`;
  process.env.COGNITO_ENDPOINT ||= issuerUrl(config);
  process.env.AWS_REGION ||= REGION;
  process.env.AWS_ACCESS_KEY_ID ||= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ||= 'local';
}
Object.assign(process.env, {
  ...untracedFunctionEnv,
  POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT',
});
const missing = ['TABLE_NAME', 'USER_POOL_ID'].filter((name) => !process.env[name]);
if (missing.length)
  refuse(
    `Manca ${missing.join(' e ')} nell'ambiente (nel cloud: le uscite PortaleData.TableName e PortaleAuth.UserPoolId; sul portale locale: --local).\n\n${USAGE}`,
  );
const local = Boolean(process.env.COGNITO_ENDPOINT);

// Loaded after the environment is set: the table's client reads its endpoint and name when it loads.
const [{ DomainError }, { dynamoAuditLog }, { systemClock }, signIns, { cognitoUserPool }, { makeRoleGrants }] =
  await Promise.all([
    import('../functions/domain/errors.ts'),
    import('../functions/adapters/audit-log.ts'),
    import('../functions/adapters/ports/clock.ts'),
    import('../functions/users/sign-ins.ts'),
    import('../functions/adapters/user-pool.ts'),
    import('../functions/users/role-grants.ts'),
  ]);

/** Who runs the command, for the audit trail: their AWS identity in the cloud; `--by` (or the machine's user) locally. */
async function engineer(): Promise<Actor> {
  const by = values.by?.trim() || null;
  let identity: string;
  if (local) identity = `locale:${os.userInfo().username}`;
  else {
    const { STSClient, GetCallerIdentityCommand } = await import('@aws-sdk/client-sts');
    const { Arn } = await new STSClient({}).send(new GetCallerIdentityCommand({}));
    identity = Arn ?? 'sconosciuto';
  }
  // Not a portal role: the field holds OPERATOR, as for the deployment's own writes (functions/entry/start-migrations.ts).
  return {
    sub: identity,
    role: 'OPERATOR',
    fiscalCode: null,
    firstName: '',
    lastName: '',
    fullName: by ? `${by} (${identity})` : identity,
    email: null,
    workingEntityId: null,
  };
}

const groupsText = (groups: string[]) => (groups.length ? groups.join(', ') : 'nessuno');
const accountLine = (account: AccountRoles, before?: AccountRoles) => {
  const changed = (from: string, to: string) => (before && from !== to ? `${from} → ${to}` : to);
  return `  utente Cognito ${account.username}: gruppi ${changed(groupsText(before?.groups ?? []), groupsText(account.groups))}; ente di lavoro ${changed(before?.workingEntity ?? 'nessuno', account.workingEntity ?? 'nessuno')}; ruolo nel portale al prossimo accesso: ${account.role}`;
};
const personLine = (person: PersonRoles) => `${person.name || 'Nome non indicato'} (${person.fiscalCode})`;

try {
  const grants = makeRoleGrants({
    signIns,
    userPool: cognitoUserPool(process.env.USER_POOL_ID!),
    audit: dynamoAuditLog,
    clock: systemClock,
  });
  if (action === 'list') {
    const person = await grants.list(fiscalCode);
    console.log(personLine(person));
    for (const account of person.accounts) console.log(accountLine(account));
    process.exit(0);
  }
  const actor = await engineer();
  const input = { fiscalCode, role, workingEntity: values.ente };
  const change: RoleChange = action === 'grant' ? await grants.grant(input, actor) : await grants.revoke(input, actor);
  console.log(personLine(change));
  for (const [i, account] of change.accounts.entries()) console.log(accountLine(account, change.before[i]));
  const roleName = role.trim().toUpperCase();
  if (!change.changed) {
    console.log(
      `Nessuna modifica: ${action === 'grant' ? `aveva già il ruolo ${roleName}` : `non aveva il ruolo ${roleName}`}${values.ente ? ' con questo ente di lavoro' : ''}.`,
    );
  } else if (action === 'grant') {
    console.log(
      `Ruolo ${roleName} concesso. La persona deve uscire dal portale ('Esci') e accedere di nuovo con SPID o CIE: il ruolo vale dal prossimo accesso.`,
    );
  } else {
    console.log(
      `Ruolo ${roleName} tolto. Vale dal prossimo accesso: chi ha già fatto l'accesso conserva il ruolo finché il suo token non scade (al massimo ${SESSION_HOURS} ore).`,
    );
  }
  if (change.changed)
    console.log(
      `Registrato nel registro delle modifiche (AUDIT#roles#${change.fiscalCode}) a nome di ${actor.fullName}.`,
    );
  process.exit(0);
} catch (error) {
  if (error instanceof DomainError) refuse(`${error.message}\nNessuna modifica.`);
  const { name, message } = error as Error;
  console.error(
    `Non riuscito: ${name}: ${message}\nQuanto è cambiato prima dell'errore è nel registro delle modifiche; lo stato attuale: npm run roles -- list ${fiscalCode}`,
  );
  process.exit(1);
}
