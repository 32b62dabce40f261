import { beforeEach, describe, expect, it } from 'vitest';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';
import { actors, portal, recordIsee, type Portal } from '../support/in-memory.ts';
import { newUserBody } from '../support/user-body.ts';

/**
 * The operator's enrolment management (issue 7) on in-memory stores: the update codes wired to the
 * transition rules, the version check, the fee on each row, and the CSV import planned and applied.
 */
let app: Portal;
let callId: string;
let year: number;

const code = (first15: string) => first15 + fiscalCodeCheckCharacter(first15);
const CF = {
  anna: code('BRNNNA88M41F839'),
  luca: code('FRRLCU75E15F205'),
  giulia: code('CLMGLI92T48L219'),
  marco: code('RCCMRC60A01H501'),
};

async function makeUser(firstName: string, lastName: string, fiscalCode: string) {
  const user = await app.store.users.createUser(
    { ...newUserBody({ firstName, lastName, fiscalCode }), email: null, emailPec: null, phoneNumber: null },
    `user-${lastName.toLowerCase()}`,
    '2026-01-01T00:00:00.000Z',
  );
  return user!.id;
}

const validatedIsee = (userId: string, value: number, iseeYear = year) =>
  recordIsee(app, userId, { value, year: iseeYear });

const csv = (lines: string[]) => ({
  fileContentBase64: Buffer.from(lines.join('\r\n'), 'utf8').toString('base64'),
  contentType: 'text/csv',
  updateIsees: false,
  removeOldSubscriptions: false,
});
const HEADER = 'codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee';

let anna: string;
let luca: string;

beforeEach(async () => {
  app = portal();
  const band = await app.bands.createBand(
    { name: 'Fascia unica', min: 0, max: 100000, percent: 50, fixedCost: 20 },
    actors.operator,
  );
  const { id: serviceId } = await app.services.createService(
    { code: 'SAD', name: 'Assistenza domiciliare', description: 'Aiuto a casa.' },
    actors.operator,
  );
  const input = {
    serviceId,
    name: 'Assistenza domiciliare 2026',
    codAccertamento: 'A',
    codCapitolo: 'C',
    nomeMyPay: 'M',
    bandsId: [band.id],
    files: [],
  };
  const call = await app.calls.createCall(input, actors.operator);
  await app.calls.updateCall(call.id, { ...input, year: call.year, state: 1 }, actors.operator);
  callId = call.id;
  year = call.year;
  anna = await makeUser('Anna', 'Bruno', CF.anna);
  luca = await makeUser('Luca', 'Ferrari', CF.luca);
});

describe('the operator runs a call’s subscriptions', () => {
  it('enrols a user (ADDED), confirms with hours, and the row shows the month’s fee from the bands', async () => {
    await validatedIsee(anna, 12000);
    const added = await app.enrolments.enrolUser(callId, { userId: anna }, actors.operator);
    expect(added).toMatchObject({
      state: 'ADDED',
      weeklyHour: null,
      fee: null,
      isee: { valueCents: 1_200_000, year, state: 'VALIDATED' },
      iseeYearMismatch: false,
    });
    await expect(app.enrolments.enrolUser(callId, { userId: anna }, actors.operator)).rejects.toMatchObject({
      status: 400,
      message: 'L’utente è già iscritto a questo bando.',
    });
    await expect(app.enrolments.enrolUser(callId, { userId: 'nobody' }, actors.operator)).rejects.toMatchObject({
      status: 404,
    });

    const confirmed = await app.enrolments.updateEnrolment(added.id, { state: 2, weeklyHour: 7 }, actors.operator);
    // 50% of 20 € = 10 €/h; 7 h a week × days in month / 7 = 10 € × days in the month.
    expect(confirmed.state).toBe('VALIDATED');
    expect(confirmed.fee?.kind).toBe('DUE');
    expect([280_00, 290_00, 300_00, 310_00]).toContain(confirmed.fee?.amountCents);
    expect(confirmed.singlePaymentAllowed).toBe(true);
    // The citizen side: the cost in euro once approved.
    const mine = await app.subscriptions.listUserSubscriptions(anna, {});
    expect(mine.items[0].cost).toBe(confirmed.fee!.amountCents / 100);
    expect(app.store.audit.entries.at(-1)).toMatchObject({
      entity: 'subscription',
      action: 'update',
      before: { state: 'ADDED' },
      after: { state: 'VALIDATED', weeklyHour: 7 },
    });
  });

  it('offers the single payment when the latest ISEE value is above 3000 € (still to verify too, as the spec reads), not at 3000 € or less', async () => {
    await validatedIsee(luca, 2500);
    // Anna's newest ISEE is above 3000 € and still to verify: the button follows the latest value (spec part 1 §4).
    await recordIsee(app, anna, { value: 12000, year, verified: false, withDocument: false });
    const rowOf = async (userId: string) => {
      const added = await app.enrolments.enrolUser(callId, { userId }, actors.operator);
      return app.enrolments.updateEnrolment(added.id, { state: 2, weeklyHour: 7 }, actors.operator);
    };
    const toVerify = await rowOf(anna);
    expect(toVerify).toMatchObject({
      state: 'VALIDATED',
      isee: { valueCents: 1_200_000, state: 'LOADED' },
      fee: { kind: 'NO_ISEE' },
      singlePaymentAllowed: true,
    });
    expect(await rowOf(luca)).toMatchObject({
      state: 'VALIDATED',
      fee: { kind: 'EXEMPT' },
      singlePaymentAllowed: false,
    });
  });

  it('needs the hours to confirm, refuses moves the rules do not allow (409), and writes nothing then', async () => {
    const added = await app.enrolments.enrolUser(callId, { userId: anna }, actors.operator);
    await expect(app.enrolments.updateEnrolment(added.id, { state: 2 }, actors.operator)).rejects.toMatchObject({
      status: 400,
      message: 'Il campo non può essere vuoto!',
    });
    await expect(app.enrolments.updateEnrolment(added.id, { state: 4 }, actors.operator)).rejects.toMatchObject({
      status: 409,
    });
    await expect(app.enrolments.updateEnrolment(added.id, { state: 0 }, actors.operator)).rejects.toMatchObject({
      status: 409,
    });
    expect(app.store.subscriptions.all.get(added.id)).toMatchObject({ state: 'ADDED', dataUpdate: added.dataUpdate });
    // Refuse, back to pending, approve, suspend, reactivate (hours kept), edit hours, delete.
    const refused = await app.enrolments.updateEnrolment(added.id, { state: 3 }, actors.operator);
    expect(refused.state).toBe('REFUSED');
    await expect(app.enrolments.unenrol(added.id, actors.operator)).rejects.toMatchObject({ status: 409 });
    expect((await app.enrolments.updateEnrolment(added.id, { state: 0 }, actors.operator)).state).toBe('ADDED');
    await app.enrolments.updateEnrolment(added.id, { state: 2, weeklyHour: 3.5 }, actors.operator);
    expect((await app.enrolments.updateEnrolment(added.id, { state: 4 }, actors.operator)).state).toBe('SUSPENDED');
    expect(await app.enrolments.updateEnrolment(added.id, { state: 2 }, actors.operator)).toMatchObject({
      state: 'VALIDATED',
      weeklyHour: 3.5,
    });
    await expect(app.enrolments.updateEnrolment(added.id, { state: 2 }, actors.operator)).rejects.toMatchObject({
      status: 400,
    });
    expect(
      (await app.enrolments.updateEnrolment(added.id, { state: 2, weeklyHour: 10 }, actors.operator)).weeklyHour,
    ).toBe(10);
    await app.enrolments.unenrol(added.id, actors.operator);
    expect(app.store.subscriptions.all.has(added.id)).toBe(false);
    expect(app.store.audit.entries.at(-1)).toMatchObject({ action: 'delete', after: null });
  });

  it('refuses a change made on a stale version: the second of two operators gets 409 and nothing of it is written', async () => {
    const added = await app.enrolments.enrolUser(callId, { userId: anna }, actors.operator);
    const first = await app.enrolments.rankEnrolment(
      added.id,
      { rankingScore: 5, dataUpdate: added.dataUpdate },
      actors.operator,
    );
    await expect(
      app.enrolments.rankEnrolment(added.id, { rankingScore: 9, dataUpdate: added.dataUpdate }, actors.operator),
    ).rejects.toMatchObject({
      status: 409,
      message: 'L’iscrizione è stata modificata da un altro operatore: ricarica la pagina e riprova.',
    });
    await expect(
      app.enrolments.updateEnrolment(added.id, { state: 3, dataUpdate: added.dataUpdate }, actors.operator),
    ).rejects.toMatchObject({ status: 409 });
    expect(app.store.subscriptions.all.get(added.id)).toMatchObject({
      rankingScore: 5,
      state: 'ADDED',
      dataUpdate: first.dataUpdate,
    });
  });

  it('lists with filters, ranking order with unscored last in both directions, and the total', async () => {
    const giulia = await makeUser('Giulia', 'Colombo', CF.giulia);
    const marco = await makeUser('Marco', 'Ricci', CF.marco);
    await validatedIsee(anna, 4000);
    await validatedIsee(luca, 20000, year - 1);
    for (const userId of [anna, luca, giulia, marco])
      await app.enrolments.enrolUser(callId, { userId }, actors.operator);
    await app.enrolments.rankEnrolment(`${callId}.${anna}`, { rankingScore: 7 }, actors.operator);
    await app.enrolments.rankEnrolment(`${callId}.${luca}`, { rankingScore: 2 }, actors.operator);
    await app.enrolments.updateEnrolment(`${callId}.${luca}`, { state: 2, weeklyHour: 1 }, actors.operator);
    const list = (query: object) =>
      app.enrolments.listEnrolments(callId, {
        sort: 'ranking',
        limit: 10,
        confirmed: false,
        iseeAbove: undefined,
        ...query,
      });
    const names = async (query: object) => (await list(query)).items.map((row) => row.lastName);
    expect((await names({})).slice(0, 2)).toEqual(['Ferrari', 'Bruno']);
    expect((await names({ sort: '-ranking' })).slice(0, 2)).toEqual(['Bruno', 'Ferrari']);
    expect((await list({})).total).toBe(4);
    expect(await names({ confirmed: true })).toEqual(['Ferrari']);
    expect(await names({ iseeAbove: 500_000 })).toEqual(['Ferrari']);
    expect(await names({ sort: '-isee' })).toEqual(expect.arrayContaining(['Ferrari', 'Bruno']));
    expect((await names({ sort: '-isee' })).slice(0, 2)).toEqual(['Ferrari', 'Bruno']);
    expect(await names({ lastName: 'col' })).toEqual(['Colombo']);
    const rows = (await list({})).items;
    // Red border: ADDED or VALIDATED with an ISEE of another year, or none.
    expect(Object.fromEntries(rows.map((r) => [r.lastName, r.iseeYearMismatch]))).toEqual({
      Ferrari: true,
      Bruno: false,
      Colombo: true,
      Ricci: true,
    });
  });

  it('keeps the ISEE on the row in step when the citizen’s newest ISEE changes', async () => {
    const added = await app.enrolments.enrolUser(callId, { userId: anna }, actors.operator);
    expect(added.isee).toBeNull();
    await validatedIsee(anna, 15000);
    const [row] = (
      await app.enrolments.listEnrolments(callId, {
        sort: 'ranking',
        limit: 10,
        confirmed: false,
        iseeAbove: undefined,
      })
    ).items;
    expect(row.isee).toEqual({ valueCents: 1_500_000, year, state: 'VALIDATED' });
  });

  it('resets the hours of the approved subscriptions only, audited', async () => {
    for (const userId of [anna, luca]) await app.enrolments.enrolUser(callId, { userId }, actors.operator);
    await app.enrolments.updateEnrolment(`${callId}.${anna}`, { state: 2, weeklyHour: 4 }, actors.operator);
    expect(await app.enrolments.startResetHours(callId, actors.operator)).toMatchObject({
      isRunning: true,
      state: 'RUNNING',
      result: null,
    });
    await app.runLatestJob();
    expect(await app.enrolments.resetHoursStatus(callId)).toMatchObject({
      isRunning: false,
      state: 'SUCCEEDED',
      done: 1,
      total: 1,
      result: { reset: 1 },
    });
    expect(app.store.subscriptions.all.get(`${callId}.${anna}`)).toMatchObject({
      state: 'VALIDATED',
      weeklyHour: null,
    });
    expect(app.store.audit.entries.at(-1)).toMatchObject({ entity: 'call', id: callId, action: 'update' });
  });

  it('refuses to reset the hours while the call is being exported to MyPay (409), changing nothing', async () => {
    await app.enrolments.enrolUser(callId, { userId: anna }, actors.operator);
    await app.enrolments.updateEnrolment(`${callId}.${anna}`, { state: 2, weeklyHour: 4 }, actors.operator);
    app.store.exportLocks.set(callId, 'flow-1');
    await expect(app.enrolments.startResetHours(callId, actors.operator)).rejects.toMatchObject({ status: 409 });
    expect(app.store.subscriptions.all.get(`${callId}.${anna}`)).toMatchObject({ weeklyHour: 4 });
  });
});

describe('CSV export, template and import', () => {
  it('exports the subscriptions in the Italian Excel format and the export imports back unchanged', async () => {
    await validatedIsee(anna, 12000.5);
    await app.enrolments.enrolUser(callId, { userId: anna }, actors.operator);
    await app.enrolments.updateEnrolment(`${callId}.${anna}`, { state: 2, weeklyHour: 2.5 }, actors.operator);
    await app.enrolments.rankEnrolment(`${callId}.${anna}`, { rankingScore: 3 }, actors.operator);
    const file = await app.enrolmentCsv.exportEnrolments(callId);
    expect(file.fileName).toBe('Assistenza domiciliare 2026.csv');
    expect(file.content).toBe(`\uFEFF${HEADER}\r\n${CF.anna};Bruno;Anna;3;2,5;12000,5;${year}\r\n`);
    const again = await app.enrolmentCsv.importEnrolments(
      callId,
      {
        ...csv([]),
        fileContentBase64: Buffer.from(file.content).toString('base64'),
        updateIsees: true,
        removeOldSubscriptions: true,
      },
      actors.operator,
    );
    expect(again).toMatchObject({ add: [], update: [], remove: [], unchanged: 1, rejected: [] });
  });

  it('gives a template the import accepts as it is', async () => {
    const template = await app.enrolmentCsv.enrolmentTemplate();
    expect(template.fileName).toMatch(/^Template_\d{4}-\d{2}-\d{2}\.csv$/);
    const preview = await app.enrolmentCsv.importEnrolments(
      callId,
      { ...csv([]), fileContentBase64: Buffer.from(template.content).toString('base64') },
      actors.operator,
    );
    expect(preview).toMatchObject({ add: [], update: [], remove: [], unchanged: 0, rejected: [] });
  });

  it('previews without writing, then applies the same plan; a second apply changes nothing', async () => {
    await app.enrolments.enrolUser(callId, { userId: luca }, actors.operator);
    const input = {
      ...csv([
        HEADER,
        `${CF.anna};Bruno;Anna;5;"3,5";"12.000,00";${year}`,
        `${CF.luca};Ferrari;Luca;8;;;`,
        '',
        `${CF.giulia};Colombo;Giulia;;;;`,
        'XXX;Nessuno;Nessuno;;;;',
        `${CF.anna};Bruno;Anna;1;;;`,
      ]),
      updateIsees: true,
    };
    const preview = await app.enrolmentCsv.importEnrolments(callId, input, actors.operator);
    expect(preview.applied).toBe(false);
    expect(preview.add.map((r) => [r.fiscalCode, r.changes])).toEqual([
      [CF.anna, ['nuova iscrizione approvata, 3,5 ore', `nuovo ISEE 12.000,00\u00a0€ (${year})`, 'punteggio 5']],
    ]);
    expect(preview.update.map((r) => [r.fiscalCode, r.changes])).toEqual([[CF.luca, ['punteggio — → 8']]]);
    expect(preview.rejected.map((r) => r.line)).toEqual([5, 6, 7]);
    expect(preview.rejected[0].reason).toMatch(
      /^Riga 5: il codice fiscale .* non appartiene a un cittadino registrato/,
    );
    expect(preview.rejected[1].reason).toBe('Riga 6: il codice fiscale “XXX” non è valido.');
    expect(preview.rejected[2].reason).toBe(`Riga 7: il codice fiscale ${CF.anna} compare già alla riga 2.`);
    expect(app.store.subscriptions.all.size).toBe(1);
    expect(app.store.isees.all.size).toBe(0);

    expect(preview.previewId).toEqual(expect.any(String));

    // 'Applica' starts the background job; nothing is written until its slices run.
    const started = await app.enrolmentCsv.startImport(callId, { previewId: preview.previewId! }, actors.operator);
    expect(started).toMatchObject({
      isRunning: true,
      state: 'RUNNING',
      done: 0,
      total: 2,
      summary: { add: 1, update: 1, remove: 0, rejected: 3 },
    });
    expect(app.store.subscriptions.all.size).toBe(1);
    await app.runLatestJob();
    expect(await app.enrolmentCsv.importStatus(callId)).toMatchObject({
      isRunning: false,
      state: 'SUCCEEDED',
      done: 2,
      total: 2,
      error: null,
    });
    expect(app.store.subscriptions.all.get(`${callId}.${anna}`)).toMatchObject({
      state: 'VALIDATED',
      weeklyHour: 3.5,
      rankingScore: 5,
      isee: { valueCents: 1_200_000, year, state: 'VALIDATED' },
    });
    expect(app.store.subscriptions.all.get(`${callId}.${luca}`)).toMatchObject({ state: 'ADDED', rankingScore: 8 });
    expect([...app.store.isees.all.values()].map((i) => [i.userId, i.valueCents, i.state])).toEqual([
      [anna, 1_200_000, 'VALIDATED'],
    ]);
    const imported = app.store.audit.entries.filter((e) => e.entity === 'subscription-import');
    expect(imported).toHaveLength(1);
    expect((imported[0].after as unknown[]).length).toBe(2);

    // Re-running the slice (a retried Lambda) changes nothing more, and is not audited again.
    const before = structuredClone([...app.store.subscriptions.all.values()]);
    await app.enrolmentImport.applySlice({ previewId: preview.previewId }, null, actors.operator);
    expect([...app.store.subscriptions.all.values()]).toEqual(before);
    expect(app.store.isees.all.size).toBe(1);
    expect(app.store.audit.entries.filter((e) => e.entity === 'subscription-import')).toHaveLength(1);

    // The same file again plans nothing.
    const second = await app.enrolmentCsv.importEnrolments(callId, input, actors.operator);
    expect(second).toMatchObject({ add: [], update: [], remove: [], unchanged: 2 });
    // The applied preview cannot be applied again: the call changed since it was made.
    await expect(
      app.enrolmentCsv.startImport(callId, { previewId: preview.previewId! }, actors.operator),
    ).rejects.toMatchObject({
      status: 409,
      message:
        'Le iscrizioni del bando sono cambiate dopo l’anteprima: carica di nuovo il file per vedere una nuova anteprima.',
    });
    expect(app.store.isees.all.size).toBe(1);
  });

  it('applies a large preview in slices of 200, reporting the rows applied', async () => {
    // 450 planned changes: the same subscription's score set on each of 450 rows is not possible, so
    // the plan is stored directly as a preview would store it.
    await app.enrolments.enrolUser(callId, { userId: luca }, actors.operator);
    const preview = await app.enrolmentCsv.importEnrolments(
      callId,
      csv([HEADER, `${CF.luca};Ferrari;Luca;8;;;`]),
      actors.operator,
    );
    const plan = app.store.importPlans.plans.get(preview.previewId!)!;
    const filler = Array.from({ length: 449 }, () => ({
      ...app.store.importPlans.slices.get(`${plan.previewId}#0`)![0],
    }));
    const actions = [...app.store.importPlans.slices.get(`${plan.previewId}#0`)!, ...filler];
    await app.store.importPlans.savePlan({ ...plan, total: actions.length, slices: 3 }, [
      actions.slice(0, 200),
      actions.slice(200, 400),
      actions.slice(400),
    ]);
    await app.enrolmentCsv.startImport(callId, { previewId: plan.previewId }, actors.operator);
    const run = app.store.jobRuns.at(-1)!;
    const first = await app.jobWorker.slice(run);
    expect(first).toEqual({ cursor: '1', finished: false });
    expect(await app.enrolmentCsv.importStatus(callId)).toMatchObject({ isRunning: true, done: 200, total: 450 });
    // A second click while it runs starts nothing.
    await expect(
      app.enrolmentCsv.startImport(callId, { previewId: plan.previewId }, actors.operator),
    ).rejects.toMatchObject({
      status: 409,
      message: 'È già in corso un’importazione per questo bando: attendi che termini.',
    });
    expect(app.store.jobRuns).toHaveLength(1);
    expect(await app.jobWorker.slice({ ...run, cursor: '1' })).toEqual({ cursor: '2', finished: false });
    expect(await app.jobWorker.slice({ ...run, cursor: '2' })).toEqual({ cursor: null, finished: true });
    expect(await app.enrolmentCsv.importStatus(callId)).toMatchObject({
      isRunning: false,
      state: 'SUCCEEDED',
      done: 450,
      total: 450,
    });
    expect(app.store.subscriptions.all.get(`${callId}.${luca}`)).toMatchObject({ rankingScore: 8 });
  });

  it('refuses an unknown, foreign, stale or expired preview and an import during an export, starting nothing', async () => {
    await app.enrolments.enrolUser(callId, { userId: luca }, actors.operator);
    const preview = await app.enrolmentCsv.importEnrolments(
      callId,
      csv([HEADER, `${CF.luca};Ferrari;Luca;8;;;`]),
      actors.operator,
    );
    const previewId = preview.previewId!;
    await expect(app.enrolmentCsv.startImport(callId, { previewId: 'nope' }, actors.operator)).rejects.toMatchObject({
      status: 404,
      message: 'Anteprima non trovata: carica di nuovo il file e premi «Anteprima».',
    });
    const current = app.store.calls.all.get(callId)!;
    const other = await app.calls.createCall(
      {
        serviceId: current.serviceId,
        name: 'Altro bando',
        codAccertamento: 'A',
        codCapitolo: 'C',
        nomeMyPay: 'M',
        bandsId: [],
        files: [],
      },
      actors.operator,
    );
    await expect(app.enrolmentCsv.startImport(other.id, { previewId }, actors.operator)).rejects.toMatchObject({
      status: 404,
    });
    app.store.exportLocks.set(callId, 'flow-1');
    await expect(app.enrolmentCsv.startImport(callId, { previewId }, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'È in corso un invio a MyPay per questo bando: l’importazione si potrà applicare quando sarà terminato.',
    });
    app.store.exportLocks.delete(callId);
    // Another operator changes the subscription after the preview: the preview no longer says what would happen.
    await app.enrolments.rankEnrolment(`${callId}.${luca}`, { rankingScore: 2 }, actors.operator);
    await expect(app.enrolmentCsv.startImport(callId, { previewId }, actors.operator)).rejects.toMatchObject({
      status: 409,
    });
    const fresh = await app.enrolmentCsv.importEnrolments(
      callId,
      csv([HEADER, `${CF.luca};Ferrari;Luca;8;;;`]),
      actors.operator,
    );
    app.store.importPlans.plans.get(fresh.previewId!)!.createdAt = '2000-01-01T00:00:00.000Z';
    await expect(
      app.enrolmentCsv.startImport(callId, { previewId: fresh.previewId! }, actors.operator),
    ).rejects.toMatchObject({
      status: 409,
      message: 'L’anteprima è scaduta: carica di nuovo il file e premi «Anteprima».',
    });
    expect(app.store.jobRuns).toHaveLength(0);
    expect(app.store.subscriptions.all.get(`${callId}.${luca}`)).toMatchObject({ rankingScore: 2 });
  });

  it('fails the job with the Italian reason when an export starts meanwhile', async () => {
    await app.enrolments.enrolUser(callId, { userId: luca }, actors.operator);
    const preview = await app.enrolmentCsv.importEnrolments(
      callId,
      csv([HEADER, `${CF.luca};Ferrari;Luca;8;;;`]),
      actors.operator,
    );
    await app.enrolmentCsv.startImport(callId, { previewId: preview.previewId! }, actors.operator);
    app.store.exportLocks.set(callId, 'flow-1');
    await expect(
      app.enrolmentImport.applySlice({ previewId: preview.previewId }, null, actors.operator),
    ).rejects.toMatchObject({ status: 409 });
    expect(app.store.subscriptions.all.get(`${callId}.${luca}`)).toMatchObject({ rankingScore: null });
  });

  it('removes the subscriptions of citizens not in the file, when asked', async () => {
    for (const userId of [anna, luca]) await app.enrolments.enrolUser(callId, { userId }, actors.operator);
    const input = { ...csv([HEADER, `${CF.anna};;;;;;`]), removeOldSubscriptions: true };
    const preview = await app.enrolmentCsv.importEnrolments(callId, input, actors.operator);
    expect(preview.remove.map((r) => r.fiscalCode)).toEqual([CF.luca]);
    await app.enrolmentCsv.startImport(callId, { previewId: preview.previewId! }, actors.operator);
    await app.runLatestJob();
    expect([...app.store.subscriptions.all.keys()]).toEqual([`${callId}.${anna}`]);
  });

  it('refuses a missing file, a type that is not CSV, a file without the template’s columns and a binary file (400), writing nothing', async () => {
    await expect(
      app.enrolmentCsv.importEnrolments(callId, { ...csv([]), fileContentBase64: '' }, actors.operator),
    ).rejects.toMatchObject({ status: 400, message: 'Nessun file caricato' });
    await expect(
      app.enrolmentCsv.importEnrolments(callId, { ...csv([HEADER]), contentType: 'application/pdf' }, actors.operator),
    ).rejects.toMatchObject({ status: 400, message: 'Carica un file con un formato supportato' });
    await expect(
      app.enrolmentCsv.importEnrolments(callId, csv(['nome;cognome', 'A;B']), actors.operator),
    ).rejects.toMatchObject({
      status: 400,
      message:
        'Le colonne del file non sono quelle del template. Attese: codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee. Trovate: nome;cognome. Mancano: codiceFiscale, punteggio, oreSettimanali, valoreIsee, annoIsee.',
    });
    // An .xlsx is a ZIP: its bytes are no text.
    const xlsx = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
      Buffer.from('[Content_Types].xml'),
    ]).toString('base64');
    await expect(
      app.enrolmentCsv.importEnrolments(callId, { ...csv([]), fileContentBase64: xlsx }, actors.operator),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Il file non è un CSV: contiene dati binari/),
    });
    await expect(app.enrolmentCsv.importEnrolments('nope', csv([HEADER]), actors.operator)).rejects.toMatchObject({
      status: 404,
    });
    expect(app.store.subscriptions.all.size).toBe(0);
  });
});
