import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { gpdIuv, gpdPaymentPosition } from '../../functions/domain/gpd.ts';
import { romeDay } from '../../functions/domain/period.ts';
import { as } from '../support/api.ts';
import { exportedMonthOf, mypayConfiguration } from '../support/positions.ts';
import { gpdAdmin, gpdClient, gpdIupdOf, onGpd, syncDone } from '../support/gpd.ts';
import { DEFAULT_ORGANIZATION } from '../../lib/local/gpd/model.ts';
import { billedMonth } from '../support/months.ts';

/**
 * 'Sincronizza' on pagoPA GPD reads the month's states from GPD's list (GET …/debtpositions by due date, pages of 50),
 * not with one GET per position: a month of 10,000 positions takes about 200 calls where it took 10,000 (at GPD's 10
 * a second, past the job's 300 s slice). The council's other offices bill through the same GPD, with the same due
 * date: their positions fill the first pages, and the portal's, paid or invalidated there, are found further on.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
const month = billedMonth();
const OTHERS = 120;

beforeAll(async () => {
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  if (onGpd()) await gpdAdmin('reset', {});
});

/** The simulator's calls let through so far, by operation (lib/local/gpd-simulator.ts counters). */
const gpdCalls = async (): Promise<Record<string, number>> =>
  (await (await fetch(`${inject('gpdUrl')}/admin/state`)).json()).counters.calls;

describe.skipIf(!onGpd())('Sincronizza reads GPD’s list, page after page', () => {
  it('finds the positions paid or invalidated at GPD past the first pages, without one GET per position', async () => {
    const people = ['Galli', 'Longo', 'Mancini'];
    const { call, byName } = await exportedMonthOf(operator, month, people, { iseeValue: 9000, weeklyHour: 2 });
    const sent = await byName();

    // Another office of the council bills 120 positions through GPD with the same due date: by iupd ('ALTRO-…'
    // before 'PSS-…') they take the list's first pages.
    const gpd = gpdClient();
    const held = await gpd.getPosition(gpdIupdOf(sent.Galli!));
    const dueDay = romeDay(new Date(`${held!.paymentOption[0]!.dueDate}Z`));
    const others = Array.from({ length: OTHERS }, (_, i) =>
      gpdPaymentPosition(
        {
          iud: `ALTRO-${String(i).padStart(4, '0')}`,
          iuv: gpdIuv(DEFAULT_ORGANIZATION.segregationCodes[0]!, 9_000_000_000_000 + i),
          fiscalCode: 'RSSMRA80A01H501U',
          fullName: 'Rossi Mario',
          amountCents: 2500,
          description: 'Refezione scolastica',
          dueDay,
        },
        {
          fiscalCode: DEFAULT_ORGANIZATION.fiscalCode,
          companyName: DEFAULT_ORGANIZATION.companyName,
          iban: 'IT60X0542811101000000123456',
          taxonomyCode: '9/0101108TS/',
        },
      ),
    );
    for (let i = 0; i < OTHERS; i += 100) await gpd.createPositions(others.slice(i, i + 100));
    // Longo pays at a counter with the notice; the council invalidates Mancini's in pagoPA's back office.
    await gpdAdmin('paid', { navs: [sent.Longo!.nav] });
    await gpd.invalidatePosition(gpdIupdOf(sent.Mancini!));

    const before = await gpdCalls();
    expect(await syncDone(operator, call.id)).toMatchObject({ state: 'SUCCEEDED', error: null });
    const after = await gpdCalls();
    const calls = (operation: string) => (after[operation] ?? 0) - (before[operation] ?? 0);
    // How many pages GPD lists for that due date (the portal's 3, the other office's 120, other tests' positions).
    const listed = await gpd.listPositions({ dueDateFrom: dueDay, dueDateTo: dueDay });
    expect(listed.length).toBeGreaterThanOrEqual(OTHERS + 3);
    expect(calls('get')).toBe(0);
    expect(calls('list')).toBeGreaterThanOrEqual(3);
    expect(calls('list')).toBeLessThanOrEqual(Math.ceil(listed.length / 50) + 2);

    const synced = await byName();
    expect(synced.Longo).toMatchObject({ isPagato: true, importoTotalePagato: sent.Longo!.importoDovuto });
    expect(synced.Mancini).toMatchObject({ annullato: true, isPagato: false });
    expect(synced.Galli).toMatchObject({ isPagato: false, annullato: false, version: sent.Galli!.version });
  });
});
