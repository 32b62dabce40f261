import { beforeAll, describe, expect, it } from 'vitest';
import { giveValidatedIsee } from '../support/isee.ts';
import { routes, routeKey } from '../../functions/routes.ts';
import { as, personas, request, tokenFor, type Persona } from '../support/api.ts';
import { responseSchema, servedDocument, undeclaredFields } from '../support/openapi-fields.ts';
import { callFields, openCall, upload } from '../support/calls.ts';
import { samplePdf } from '../support/files.ts';
import { attestationPdf, stageIseeFile } from '../support/isee.ts';
import { approvedSubscriber, mypayConfiguration, storedPositions } from '../support/positions.ts';
import { newUserBody } from '../support/user-body.ts';
import { keys } from '../../functions/adapters/table.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * Who may call what, written out by hand from the spec (part 2 §2.1 and §6) — not derived from the
 * route table, so a wrong `access` in the table makes this test fail.
 * A = anonymous, C = citizen, N = citizen at first sign-in, O = operator, D = delegate, E = operator by working entity.
 */
type Row = Record<Persona, number>;
const everyone = (status: number): Row => ({
  anonymous: status,
  citizen: status,
  newCitizen: status,
  operator: status,
  delegate: status,
  entityOperator: status,
});
const operatorsOnly = (ok: number): Row => ({
  anonymous: 401,
  citizen: 403,
  newCitizen: 403,
  operator: ok,
  delegate: 403,
  entityOperator: ok,
});
/** Operators and delegates read: the delegate's slice (part 2 §2.1, §6) is the users list and record, a call's payment list and the panel's counts. */
const readers = (ok: number): Row => ({ ...operatorsOnly(ok), delegate: ok });
const citizensOnly = (ok: number): Row => ({
  anonymous: 401,
  citizen: ok,
  newCitizen: ok,
  operator: 403,
  delegate: 403,
  entityOperator: 403,
});

const expected: Record<string, Row> = {
  'GET /api/bands': everyone(200),
  'GET /api/bands/{id}': operatorsOnly(200),
  'POST /api/bands': operatorsOnly(201),
  'PUT /api/bands/{id}': operatorsOnly(200),
  'DELETE /api/bands/{id}': operatorsOnly(204),
  'GET /api/services': everyone(200),
  'GET /api/services/{id}': everyone(200),
  'POST /api/services': operatorsOnly(201),
  'PUT /api/services/{id}': operatorsOnly(200),
  'DELETE /api/services/{id}': operatorsOnly(204),
  'GET /api/me': { ...everyone(200), anonymous: 401 },
  'POST /api/uploads': {
    anonymous: 401,
    citizen: 201,
    newCitizen: 201,
    operator: 201,
    delegate: 403,
    entityOperator: 201,
  },
  'GET /api/openapi.json': everyone(200),
  'GET /api/calls': operatorsOnly(200),
  'GET /api/calls/{id}': operatorsOnly(200),
  'POST /api/calls': operatorsOnly(201),
  'PUT /api/calls/{id}': operatorsOnly(200),
  'DELETE /api/calls/{id}': operatorsOnly(204),
  'DELETE /api/calls/{id}/files/{fileId}': operatorsOnly(204),
  'GET /api/services/{id}/calls': operatorsOnly(200),
  'GET /api/open-calls': everyone(200),
  'GET /api/open-calls/{id}': everyone(200),
  'GET /api/me/calls/{id}': citizensOnly(200),
  'POST /api/calls/{id}/subscriptions': citizensOnly(201),
  'GET /api/calls/{id}/subscription': citizensOnly(200),
  'GET /api/subscriptions': citizensOnly(200),
  'GET /api/profile': citizensOnly(200),
  'PUT /api/profile': citizensOnly(200),
  'GET /api/users': readers(200),
  'GET /api/users/loaded/count': readers(200),
  'GET /api/users/{id}': readers(200),
  'POST /api/users': operatorsOnly(201),
  'PUT /api/users/{id}': operatorsOnly(200),
  'PUT /api/users/{id}/status': operatorsOnly(200),
  'DELETE /api/users/{id}': operatorsOnly(204),
  'GET /api/isee': operatorsOnly(200),
  'GET /api/isee/to-verify/count': readers(200),
  // The ISEE is Maria Rossi's ('citizen'): another citizen is told it is not there. A delegate reads the
  // record's ISEE list, not one ISEE with its document (the review pages are the operators').
  'GET /api/isee/{id}': { ...operatorsOnly(200), citizen: 200, newCitizen: 404 },
  'POST /api/isee': citizensOnly(201),
  'PUT /api/isee/{id}/decision': operatorsOnly(200),
  'DELETE /api/isee/{id}': operatorsOnly(204),
  'GET /api/me/isee': citizensOnly(200),
  'GET /api/users/{id}/isee': readers(200),
  'POST /api/users/{id}/isee': operatorsOnly(201),
  // The record is Maria Rossi's ('citizen'): any other citizen is told it is not there.
  'GET /api/subscriptions/{id}': { ...citizensOnly(200), newCitizen: 404 },
  'GET /api/users/{id}/subscriptions': {
    anonymous: 401,
    citizen: 403,
    newCitizen: 403,
    operator: 200,
    delegate: 200,
    entityOperator: 200,
  },
  // Configuration and debt positions: operators only (part 2 §2.1: delegates have neither page).
  'GET /api/configuration': operatorsOnly(200),
  'PUT /api/configuration': operatorsOnly(200),
  'POST /api/calls/{id}/positions/generate': operatorsOnly(200),
  'GET /api/calls/{id}/positions/generate': operatorsOnly(200),
  'POST /api/calls/{id}/positions/csv': operatorsOnly(200),
  'GET /api/calls/{id}/positions/csv': operatorsOnly(200),
  'GET /api/calls/{id}/positions': operatorsOnly(200),
  // The payment edit modal and Sincronizza (operator-admin §2, §5): operators only.
  'PUT /api/positions/{id}': operatorsOnly(200),
  'POST /api/calls/{id}/positions/sync': operatorsOnly(200),
  'GET /api/calls/{id}/positions/sync': operatorsOnly(200),
  // The payment list of a call: delegates read it too (part 2 §2.1, /lista_bandi/dettaglio_sessione/lista_pagamenti).
  'GET /api/calls/{id}/payment-list': readers(200),
  'GET /api/calls/{id}/payment-totals': readers(200),
  // Tickets: citizens write to support and read their own; operators the rest. The spec gives delegates no
  // ticket page and disables the record's 'Ticket' button (part 2 §2.1, §2.13, §6): every ticket route is 403.
  'POST /api/support': citizensOnly(201),
  'GET /api/support/subjects': citizensOnly(200),
  'GET /api/me/tickets': citizensOnly(200),
  'GET /api/tickets/aperti': operatorsOnly(200),
  'GET /api/tickets/aperti/count': operatorsOnly(200),
  'GET /api/tickets/cerca': operatorsOnly(200),
  'POST /api/tickets': operatorsOnly(201),
  // The ticket is Maria Rossi's ('citizen'): another citizen is told it is not there.
  'GET /api/tickets/{id}': { ...operatorsOnly(200), citizen: 200, newCitizen: 404 },
  'PUT /api/tickets/{id}/modifica': operatorsOnly(200),
  'GET /api/tickets/{id}/storico': operatorsOnly(200),
  'GET /api/users/{id}/tickets': operatorsOnly(200),
  // Enrolment management (issue 7): operators only. The call detail is outside the delegate's slice, so
  // neither its table nor its CSV (fiscal codes, ISEE, hours) is theirs to read.
  'GET /api/calls/{id}/enrolments': operatorsOnly(200),
  'POST /api/calls/{id}/enrolments': operatorsOnly(201),
  'PUT /api/enrolments/{id}/state': operatorsOnly(200),
  'PUT /api/enrolments/{id}/ranking': operatorsOnly(200),
  'DELETE /api/enrolments/{id}': operatorsOnly(204),
  'POST /api/calls/{id}/enrolments/reset-hours': operatorsOnly(200),
  'GET /api/calls/{id}/enrolments/reset-hours': operatorsOnly(200),
  'GET /api/calls/{id}/enrolments/csv': operatorsOnly(200),
  'GET /api/enrolments/template': operatorsOnly(200),
  'POST /api/calls/{id}/enrolments/import': operatorsOnly(200),
  'POST /api/calls/{id}/enrolments/import/apply': operatorsOnly(200),
  'GET /api/calls/{id}/enrolments/import': operatorsOnly(200),
  // MyPay exports and flows: operators only. 'Invia a MyPay' only starts the workflow (201), which finds nothing
  // to send in the matrix's new call and completes without listing the flow. The matrix's flow holds its one position back (its citizen's stored address would run as a formula):
  // it completes at once, restarting it is refused (409) and it has no file (404) — past the role check.
  'POST /api/calls/{id}/exports': operatorsOnly(201),
  'GET /api/flows': operatorsOnly(200),
  'GET /api/flows/{id}': operatorsOnly(200),
  'POST /api/flows/{id}/restart': operatorsOnly(409),
  'GET /api/flows/{id}/files/{kind}': operatorsOnly(404),
  // Notices (issue 9): operators send, delegates and citizens are refused. A position id no one has is a 404
  // past the role check; the flow e-mail is a background job: accepted (202), its progress read back.
  'POST /api/positions/{id}/email': operatorsOnly(404),
  'POST /api/positions/{id}/io': operatorsOnly(404),
  'POST /api/positions/{id}/reconciliation': operatorsOnly(404),
  'POST /api/positions/{id}/io/status': operatorsOnly(404),
  'POST /api/flows/{id}/email': operatorsOnly(202),
  'GET /api/flows/{id}/email': operatorsOnly(200),
  // A citizen's positions and paying them (issue 9): the matrix's position and session belong to nobody,
  // so a citizen is told they are not there; operators and delegates read one citizen's positions.
  'GET /api/me/positions': citizensOnly(200),
  'POST /api/me/positions/{id}/pay': citizensOnly(404),
  'POST /api/me/payments/return': citizensOnly(404),
  'POST /api/me/payments/cart': citizensOnly(404),
  'GET /api/me/payments/options': citizensOnly(200),
  'GET /api/users/{id}/positions': readers(200),
  'GET /api/positions': operatorsOnly(200),
  // 'Avviso PDF' (issue 37): citizens (their own only), operators and delegates; the matrix's position is no one's.
  'GET /api/positions/{id}/notice': { ...everyone(404), anonymous: 401 },
  // Rendicontazione (issue 8): operators only.
  'POST /api/calls/{id}/reporting': operatorsOnly(200),
  // The ISEE from INPS (issue 24): the citizen for themself only, operators for anyone; delegates never.
  'POST /api/me/isee/inps': citizensOnly(200),
  'GET /api/me/inps-queries': citizensOnly(200),
  'POST /api/users/{id}/isee/inps': operatorsOnly(200),
  'GET /api/users/{id}/inps-queries': operatorsOnly(200),
  'POST /api/isee/{id}/inps-check': operatorsOnly(200),
  // Keeping ISEE current (issue 24): the refresh jobs and the expiry list are the operators'; the payment
  // list's 'ISEE scaduto o mancante' is read by delegates too, as the rest of the payment list.
  'POST /api/calls/{id}/isee-refresh': operatorsOnly(200),
  'GET /api/calls/{id}/isee-refresh': operatorsOnly(200),
  'GET /api/isee-expiry': operatorsOnly(200),
  'POST /api/isee-expiry': operatorsOnly(200),
  'POST /api/isee-expiry/new-year': operatorsOnly(200),
  'GET /api/calls/{id}/payment-list/missing-isee': readers(200),
  'GET /api/calls/{id}/reporting': operatorsOnly(200),
};

const validBody: Record<string, unknown> = {
  bands: { name: 'Fascia matrice', min: 0, max: 100, percent: 50, fixedCost: 10 },
  uploads: { purpose: 'subscription-file', fileName: 'documento.pdf', contentType: 'application/pdf', size: 1024 },
  services: { code: 'MATRICE', name: 'Servizio matrice', description: 'Servizio creato dal test dei permessi.' },
  // calls: set in beforeAll (it names a real service)
  subscriptions: { files: [] },
  configuration: mypayConfiguration,
  payments: { mese: 3, anno: 2026 },
  flows: { mese: 3, anno: 2026 },
  'user-positions': { returnPath: '/iscrizioni/visualizza_servizio?id=matrice' },
  reporting: {},
  // A fresh fiscal code at every read: each test makes a user of its own.
  get users() {
    return newUserBody({ firstName: 'Utente', lastName: 'Matrice', email: 'matrice@example.it' });
  },
  support: { emailUser: 'matrice@example.it', subject: 'Altro', message: 'Messaggio del test dei permessi.' },
  isee: {
    value: 1000,
    year: 2026,
    date: '2026-01-20T10:00:00.000Z',
    protocollo: 'INPS-ISEE-2026-00000003C-00',
    scadenza: '2026-12-31',
    excludeVerification: true,
  },
};

const profileBody = {
  email: 'cittadino@example.it',
  birthDate: '1985-03-12',
  address: 'Via Roma',
  addressNumber: '12',
  cap: '00184',
  city: 'Roma',
  country: 'RM',
  nation: 'IT',
};

/** Bodies that depend on who sends them (a citizen's ISEE names a file that citizen uploaded). */
const bodies: Record<string, (persona: Persona) => Promise<unknown>> = {
  'POST /api/me/payments/return': async () => ({ idSession: 'sessione-della-matrice' }),
  'POST /api/me/payments/cart': async () => ({
    ids: ['P2026030000000000000000000000000000'],
    returnPath: '/iscrizioni/visualizza_servizio?id=matrice',
  }),
  'POST /api/isee': async (persona) => {
    if (persona !== 'citizen' && persona !== 'newCitizen') return { value: 1 };
    const client = await as(persona);
    return {
      value: 1000,
      document: await stageIseeFile(
        client,
        await attestationPdf({
          fullName: 'Cittadino',
          fiscalCode: 'RSSMRA85C52H501N',
          protocol: 'INPS-ISEE-2026-00000004D-00',
          value: '1.000,00',
        }),
      ),
    };
  },
  'PUT /api/profile': async () => profileBody,
  'PUT /api/users/{id}/status': async () => ({ suspended: true }),
  'PUT /api/isee/{id}/decision': async () => ({ state: 1, value: 1000 }),
  'POST /api/support': async () => validBody.support,
  'POST /api/tickets': async () => ({
    userId: await mariaId(),
    categoria: 'Altro',
    dettagli: 'Ticket del test dei permessi.',
  }),
  'PUT /api/tickets/{id}/modifica': async () => ({
    stato: 1,
    categoria: 'Altro',
    dettagli: 'Presa in carico.',
    assegnatoA: 'Operatore',
  }),
  'POST /api/calls/{id}/enrolments': async () => ({ userId: enrolmentUserId }),
  'PUT /api/enrolments/{id}/state': async () => ({ state: 3 }),
  'PUT /api/enrolments/{id}/ranking': async () => ({ rankingScore: 1 }),
  'PUT /api/positions/{id}': async () => ({ descrizione: 'Quota rivista dal test dei permessi', importo: 12.5 }),
  'POST /api/positions/{id}/reconciliation': async () => ({ nota: 'Rimborso disposto dal test dei permessi' }),
  'POST /api/calls/{id}/enrolments/import': async () => ({
    fileContentBase64: Buffer.from(
      'codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\r\n',
    ).toString('base64'),
    contentType: 'text/csv',
    updateIsees: false,
    removeOldSubscriptions: false,
  }),
  'POST /api/calls/{id}/enrolments/import/apply': async () => ({ previewId: importPreviewId }),
};

/** The preview the apply route applies (made by its setup, on a call of its own). */
let importPreviewId = '';

const mariaId = async () => (await (await as('citizen')).get('/api/me')).json.userId as string;
/** A ticket of Maria Rossi ('citizen'), made by the operator (support messages are rate-limited per citizen). */
const matrixTicket = async (operator: Client) => {
  const created = await operator.post('/api/tickets', {
    userId: await mariaId(),
    categoria: 'Altro',
    dettagli: 'Ticket del test dei permessi.',
  });
  expect(created.status).toBe(201);
  return created.json.id as string;
};

/** The user the enrol route enrols (made by its setup). */
let enrolmentUserId = '';

/** An open call with a user enrolled by the operator (approved with hours when asked): its subscription id. */
async function enrolment(operator: Client, approve = false) {
  const { call } = await openCall(operator);
  const user = (await operator.post('/api/users', validBody.users)).json;
  const created = await operator.post(`/api/calls/${call.id}/enrolments`, { userId: user.id });
  expect(created.status).toBe(201);
  if (approve)
    expect((await operator.put(`/api/enrolments/${created.json.id}/state`, { state: 2, weeklyHour: 3 })).status).toBe(
      200,
    );
  return { callId: call.id as string, id: created.json.id as string };
}

/** An ISEE for Maria Rossi ('citizen'); with a document it waits for review (LOADED). */
async function matrixIsee(operator: Client, withDocument: boolean) {
  const userId = (await (await as('citizen')).get('/api/me')).json.userId;
  const document = withDocument ? await stageIseeFile(operator, await samplePdf('ISEE')) : undefined;
  const created = await operator.post(`/api/users/${userId}/isee`, {
    ...(validBody.isee as object),
    document,
    excludeVerification: !withDocument,
  });
  expect(created.status).toBe(201);
  return created.json.id as string;
}

type Client = Awaited<ReturnType<typeof as>>;

/** Waits until neither the year's expiry job nor its January refresh runs. */
async function yearJobsIdle(operator: Client) {
  for (let i = 0; i < 300; i++) {
    const list = (await operator.get('/api/isee-expiry')).json;
    if (!list.job.isUpdating && !list.newYearJob.isUpdating) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the ISEE year jobs are still running');
}

/** Applying needs a validated ISEE (and the ISEE rows above upload new ones): both citizens get one the real way. */
async function citizensEligible(operator: Client) {
  for (const citizen of ['citizen', 'newCitizen'] as const) await giveValidatedIsee(await as(citizen), operator);
}

/** Routes whose record is not made by POST /api/<resource>: each gets its own, and its path. */
/** A call whose month can be generated: the configuration is complete first. */
const positionsPath = (suffix: string) => async (operator: Client) => {
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  return `/api/calls/${(await openCall(operator)).call.id}/positions${suffix}`;
};

/** A flow whose one position is held back (it sends nothing to MyPay and completes at once): made once, read by every persona. */
let heldBackFlow: Promise<string> | undefined;
const matrixFlow = (operator: Client) =>
  (heldBackFlow ??= (async () => {
    expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
    const { call } = await openCall(operator);
    const { userId } = await approvedSubscriber(operator, call, {
      lastName: 'Matrice',
      iseeValue: 8000,
      weeklyHour: 2,
    });
    const user = (await localTable().item(keys.user(userId)))!;
    await localTable().putItem({ ...user, address: '=HYPERLINK("http://evil.example","x")' });
    const started = await operator.post(`/api/calls/${call.id}/exports`, validBody.flows);
    expect(started.status).toBe(201);
    for (let i = 0; i < 100 && (await operator.get(`/api/flows/${started.json.id}`)).json.step !== 'COMPLETATO'; i++)
      await new Promise((r) => setTimeout(r, 100));
    return started.json.id as string;
  })());

const setups: Record<string, (operator: Client) => Promise<string>> = {
  'POST /api/calls/{id}/exports': async (operator) => {
    expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
    return `/api/calls/${(await openCall(operator)).call.id}/exports`;
  },
  'GET /api/flows/{id}': async (operator) => `/api/flows/${await matrixFlow(operator)}`,
  'POST /api/flows/{id}/restart': async (operator) => `/api/flows/${await matrixFlow(operator)}/restart`,
  'POST /api/flows/{id}/email': async (operator) => `/api/flows/${await matrixFlow(operator)}/email`,
  'GET /api/flows/{id}/email': async (operator) => `/api/flows/${await matrixFlow(operator)}/email`,
  'POST /api/positions/{id}/email': async () => '/api/positions/P202611NESSUNAPOSIZIONE/email',
  'POST /api/positions/{id}/io': async () => '/api/positions/P202611NESSUNAPOSIZIONE/io',
  'POST /api/positions/{id}/reconciliation': async () => '/api/positions/P202611NESSUNAPOSIZIONE/reconciliation',
  'POST /api/positions/{id}/io/status': async () => '/api/positions/P202611NESSUNAPOSIZIONE/io/status',
  'GET /api/positions/{id}/notice': async () => '/api/positions/P202611NESSUNAPOSIZIONE/notice',
  'GET /api/flows/{id}/files/{kind}': async (operator) => `/api/flows/${await matrixFlow(operator)}/files/iuv`,
  'POST /api/calls/{id}/positions/generate': positionsPath('/generate'),
  'GET /api/calls/{id}/positions/generate': positionsPath('/generate'),
  'POST /api/calls/{id}/positions/csv': positionsPath('/csv'),
  'GET /api/calls/{id}/positions/csv': positionsPath('/csv'),
  'GET /api/calls/{id}/positions': positionsPath(''),
  'POST /api/calls/{id}/positions/sync': positionsPath('/sync'),
  'GET /api/calls/{id}/positions/sync': positionsPath('/sync'),
  // A position of its own: an approved citizen's month, generated.
  'PUT /api/positions/{id}': async (operator) => {
    expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
    const { call } = await openCall(operator);
    await approvedSubscriber(operator, call, { lastName: 'Matrice', iseeValue: 8000, weeklyHour: 2 });
    expect(
      (await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese: 3, anno: 2026 })).json.created,
    ).toBe(1);
    const [position] = await storedPositions(call.id, '2026-03');
    // Found by its IUD through gsi2, which lists it a moment after the generation.
    await indexesCaughtUp();
    return `/api/positions/${position!.iud}`;
  },
  'POST /api/me/positions/{id}/pay': async () => '/api/me/positions/P2026030000000000000000000000000000/pay',
  'GET /api/users/{id}/positions': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/positions`,
  'GET /api/positions': async () => '/api/positions?fiscalCode=RSSMRA85C52H501N',
  'POST /api/calls/{id}/reporting': async (operator) => `/api/calls/${(await openCall(operator)).call.id}/reporting`,
  'GET /api/calls/{id}/reporting': async (operator) => `/api/calls/${(await openCall(operator)).call.id}/reporting`,
  'GET /api/calls/{id}/payment-list': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/payment-list`,
  'GET /api/calls/{id}/payment-totals': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/payment-totals`,
  'DELETE /api/calls/{id}/files/{fileId}': async (operator) => {
    const form = await upload(operator, 'call-form', await samplePdf(), 'modulo.pdf');
    const call = (await operator.post('/api/calls', { ...(validBody.calls as object), files: [form] })).json;
    return `/api/calls/${call.id}/files/${call.announcementFiles[0].storageFileId}`;
  },
  'GET /api/services/{id}/calls': async (operator) =>
    `/api/services/${(await operator.post('/api/services', validBody.services)).json.id}/calls`,
  'GET /api/open-calls/{id}': async (operator) => `/api/open-calls/${(await openCall(operator)).call.id}`,
  'GET /api/me/calls/{id}': async (operator) => `/api/me/calls/${(await openCall(operator)).call.id}`,
  'POST /api/calls/{id}/subscriptions': async (operator) => {
    await citizensEligible(operator);
    return `/api/calls/${(await openCall(operator)).call.id}/subscriptions`;
  },
  'GET /api/calls/{id}/subscription': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/subscription`,
  'GET /api/isee/{id}': async (operator) => `/api/isee/${await matrixIsee(operator, false)}`,
  'POST /api/calls/{id}/isee-refresh': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/isee-refresh`,
  'GET /api/calls/{id}/isee-refresh': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/isee-refresh`,
  'GET /api/calls/{id}/payment-list/missing-isee': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/payment-list/missing-isee`,
  // One run of the year's expiry list (or January refresh) at a time: each persona's call waits for the last to end.
  'POST /api/isee-expiry': async (operator) => (await yearJobsIdle(operator), '/api/isee-expiry'),
  'POST /api/isee-expiry/new-year': async (operator) => (await yearJobsIdle(operator), '/api/isee-expiry/new-year'),
  'POST /api/isee/{id}/inps-check': async (operator) => `/api/isee/${await matrixIsee(operator, true)}/inps-check`,
  'POST /api/users/{id}/isee/inps': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/isee/inps`,
  'GET /api/users/{id}/inps-queries': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/inps-queries`,
  'PUT /api/isee/{id}/decision': async (operator) => `/api/isee/${await matrixIsee(operator, true)}/decision`,
  'DELETE /api/isee/{id}': async (operator) => `/api/isee/${await matrixIsee(operator, false)}`,
  'GET /api/users/{id}/isee': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/isee`,
  'POST /api/users/{id}/isee': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/isee`,
  'GET /api/users/{id}/subscriptions': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/subscriptions`,
  'PUT /api/users/{id}/status': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/status`,
  'GET /api/tickets/cerca': async () => '/api/tickets/cerca?q=rossi',
  'GET /api/tickets/{id}': async (operator) => `/api/tickets/${await matrixTicket(operator)}`,
  'PUT /api/tickets/{id}/modifica': async (operator) => `/api/tickets/${await matrixTicket(operator)}/modifica`,
  'GET /api/tickets/{id}/storico': async (operator) => `/api/tickets/${await matrixTicket(operator)}/storico`,
  'GET /api/users/{id}/tickets': async (operator) =>
    `/api/users/${(await operator.post('/api/users', validBody.users)).json.id}/tickets`,
  'GET /api/calls/{id}/enrolments': async (operator) => `/api/calls/${(await enrolment(operator)).callId}/enrolments`,
  'POST /api/calls/{id}/enrolments': async (operator) => {
    const { call } = await openCall(operator);
    enrolmentUserId = (await operator.post('/api/users', validBody.users)).json.id;
    return `/api/calls/${call.id}/enrolments`;
  },
  'PUT /api/enrolments/{id}/state': async (operator) => `/api/enrolments/${(await enrolment(operator)).id}/state`,
  'PUT /api/enrolments/{id}/ranking': async (operator) => `/api/enrolments/${(await enrolment(operator)).id}/ranking`,
  'DELETE /api/enrolments/{id}': async (operator) => `/api/enrolments/${(await enrolment(operator, true)).id}`,
  'POST /api/calls/{id}/enrolments/reset-hours': async (operator) =>
    `/api/calls/${(await enrolment(operator, true)).callId}/enrolments/reset-hours`,
  'GET /api/calls/{id}/enrolments/reset-hours': async (operator) =>
    `/api/calls/${(await enrolment(operator)).callId}/enrolments/reset-hours`,
  'GET /api/calls/{id}/enrolments/csv': async (operator) =>
    `/api/calls/${(await enrolment(operator)).callId}/enrolments/csv`,
  'POST /api/calls/{id}/enrolments/import': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/enrolments/import`,
  'POST /api/calls/{id}/enrolments/import/apply': async (operator) => {
    const { callId } = await enrolment(operator);
    const preview = await operator.post(`/api/calls/${callId}/enrolments/import`, {
      fileContentBase64: Buffer.from(
        'codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\r\n',
      ).toString('base64'),
      contentType: 'text/csv',
    });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    importPreviewId = preview.json.previewId;
    return `/api/calls/${callId}/enrolments/import/apply`;
  },
  'GET /api/calls/{id}/enrolments/import': async (operator) =>
    `/api/calls/${(await openCall(operator)).call.id}/enrolments/import`,
  'GET /api/subscriptions/{id}': async (operator) => {
    await citizensEligible(operator);
    const { call } = await openCall(operator);
    const created = await (await as('citizen')).post(`/api/calls/${call.id}/subscriptions`, { files: [] });
    expect(created.status).toBe(201);
    return `/api/subscriptions/${created.json.id}`;
  },
};

describe('every route × every role', () => {
  const tokens = {} as Record<Persona, string | undefined>;
  beforeAll(async () => {
    for (const persona of personas) tokens[persona] = await tokenFor(persona);
    const service = (await (await as('operator')).post('/api/services', validBody.services)).json;
    validBody.calls = { ...callFields(service.id, 'Bando matrice'), year: 2025, state: 0 };
  });

  it('has an expectation for every route of the route table', () => {
    expect(Object.keys(expected).sort()).toEqual(routes.map(routeKey).sort());
  });

  for (const route of routes) {
    for (const persona of personas) {
      const want = expected[routeKey(route)]?.[persona];
      it(`${routeKey(route)} as ${persona} → ${want}`, async () => {
        const operator = await as('operator');
        // Each call that may change or read a record gets a record of its own, made by the operator.
        let path: string = route.path;
        const setup = setups[routeKey(route)];
        if (setup) path = await setup(operator);
        else if (path.includes('{id}')) {
          const created = await operator.post(`/api/${route.resource}`, validBody[route.resource]);
          expect(created.status).toBe(201);
          path = path.replace('{id}', created.json.id);
        }
        const bodyFor = bodies[routeKey(route)];
        const body =
          route.method === 'POST' || route.method === 'PUT'
            ? bodyFor
              ? await bodyFor(persona)
              : validBody[route.resource]
            : undefined;
        const response = await request(route.method, path, { token: tokens[persona], body });
        expect(response.status, JSON.stringify(response.json)).toBe(want);
        if (response.status >= 400) expect(response.json.detail).toMatch(/[a-zà-ù]/i);
        // A success carries only the fields its schema in the served OpenAPI document declares (issue 21).
        const document = await servedDocument();
        const schema =
          response.status < 300 ? responseSchema(document, route.method, route.path, response.status) : undefined;
        if (schema)
          expect(undeclaredFields(schema, response.json, document), 'fields the schema does not declare').toEqual([]);
      });
    }
  }

  it('tells each person the role the spec gives them', async () => {
    const roles: Record<string, string> = {};
    for (const persona of personas.filter((p) => p !== 'anonymous'))
      roles[persona] = (await (await as(persona)).get('/api/me')).json.role;
    expect(roles).toEqual({
      citizen: 'CITIZEN',
      newCitizen: 'CITIZEN',
      operator: 'OPERATOR',
      delegate: 'DELEGATE',
      entityOperator: 'OPERATOR',
    });
  });
});
