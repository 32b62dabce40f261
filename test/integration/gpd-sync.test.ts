import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { exportMonth, exportedMonthOf, mypayConfiguration } from '../support/positions.ts';
import { localTable } from '../support/dynamo.ts';
import { gpdAdmin, gpdClient, gpdIupdOf, onGpd, syncDone } from '../support/gpd.ts';
import { DEFAULT_API_KEY, DEFAULT_ORGANIZATION } from '../../lib/local/gpd/model.ts';
import { pastMonth } from '../support/months.ts';

/**
 * 'Sincronizza' on pagoPA GPD (issue 37; project integration-gpd): what happened to the council's positions at GPD
 * outside the portal reaches the portal. A position paid there (a bank's app, a counter with the notice) is
 * recorded as paid, with GPD's receipt; one the council invalidated in pagoPA's back office is cancelled; one put
 * back to DRAFT (an update without toPublish, unpayable) is sent again by the next export, which publishes it.
 * MyPay has no reading of one position (its payments come from 'Rendicontazione'): the file runs only on GPD.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
// A month already past (its due day gone), of the call's year so that 'Sincronizza' looks at it.
const late = pastMonth();
const pastPeriod = late.period;

beforeAll(async () => {
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  if (onGpd()) await gpdAdmin('reset', {});
});

describe.skipIf(!onGpd())('Sincronizza reads GPD’s state of each position', () => {
  it('paid outside the portal → paid with GPD’s receipt; invalidated at GPD → cancelled; back in DRAFT → published again by the next export', async () => {
    const people = ['Rossi', 'Bianchi', 'Verdi', 'Neri'];
    const { call, byName } = await exportedMonthOf(operator, late, people, { iseeValue: 8000, weeklyHour: 3 });
    const sent = await byName();
    for (const name of people) expect(sent[name]).toMatchObject({ statoExport: 'ESPORTATA', isPagato: false });

    const gpd = gpdClient();
    // Rossi pays at a counter with the notice; the council invalidates Bianchi's notice in pagoPA's back office;
    // someone updates Verdi's without toPublish (GPD puts it back to DRAFT, where nobody can pay it). Neri: nothing.
    await gpdAdmin('paid', { navs: [sent.Rossi!.nav] });
    await gpd.invalidatePosition(gpdIupdOf(sent.Bianchi!));
    const verdi = gpdIupdOf(sent.Verdi!);
    const held = await (
      await fetch(
        `${inject('gpdUrl')}/gpd/debt-positions-service/v1/organizations/${DEFAULT_ORGANIZATION.fiscalCode}/debtpositions/${verdi}`,
        { headers: { 'ocp-apim-subscription-key': DEFAULT_API_KEY } },
      )
    ).json();
    const draft = await fetch(
      `${inject('gpdUrl')}/gpd/debt-positions-service/v1/organizations/${DEFAULT_ORGANIZATION.fiscalCode}/debtpositions/${verdi}`,
      {
        method: 'PUT',
        headers: { 'ocp-apim-subscription-key': DEFAULT_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(held),
      },
    );
    expect(draft.status).toBe(200);
    expect((await gpd.getPosition(verdi))?.status).toBe('DRAFT');

    const status = await syncDone(operator, call.id);
    expect(status).toMatchObject({ state: 'SUCCEEDED', error: null });
    const after = await byName();
    const paidAtGpd = await gpd.getPosition(gpdIupdOf(sent.Rossi!));
    expect(after.Rossi).toMatchObject({ isPagato: true, importoTotalePagato: sent.Rossi!.importoDovuto });
    expect((after.Rossi!.pagamenti as { iur: string }[]).map((p) => p.iur)).toEqual([
      paidAtGpd!.paymentOption[0]!.idReceipt,
    ]);
    expect(after.Bianchi).toMatchObject({ annullato: true, isPagato: false, statoExport: 'ESPORTATA' });
    expect(after.Verdi).toMatchObject({ isPagato: false, annullato: false, statoExport: 'DA_ESPORTARE' });
    expect(after.Neri).toMatchObject({ statoExport: 'ESPORTATA', version: sent.Neri!.version });
    const audit = await localTable().auditOf('position', sent.Bianchi!.iud as string);
    expect(audit.at(-1)).toMatchObject({ action: 'update', after: { annullato: true } });

    // The next export publishes Verdi's again (payable), and sends nothing for the others.
    await exportMonth(operator, call.id, pastPeriod);
    expect((await gpd.getPosition(verdi))?.status).toBe('VALID');
    expect((await byName()).Verdi).toMatchObject({ statoExport: 'ESPORTATA' });
    expect((await gpd.getPosition(gpdIupdOf(sent.Bianchi!)))?.status).toBe('INVALID');

    // A second Sincronizza finds nothing new: nothing changes.
    const settled = await byName();
    await syncDone(operator, call.id);
    const again = await byName();
    for (const name of people) expect(again[name]!.version).toBe(settled[name]!.version);
  });
});
