import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalTable } from '../support/dynamo.ts';

/**
 * The January refresh counts a day's INPS queries from its report (the PDND purpose's daily estimate), so a run
 * started again the same day does not ask past it. Against the local DynamoDB.
 */
let repository: typeof import('../../functions/isee/refresh-repository.ts');

beforeAll(async () => {
  useLocalTable();
  repository = await import('../../functions/isee/refresh-repository.ts');
});

describe('a refresh report’s queries of one day', () => {
  it('counts the citizens asked for on that day, not those of another day or another report', async () => {
    const [report, other] = [randomUUID(), randomUUID()];
    const row = (reportId: string, userId: string, askedOn: string) =>
      repository.putRefreshResult({
        reportId,
        userId,
        fiscalCode: 'RSSMRA80A01H501U',
        firstName: 'Anna',
        lastName: 'Gennaio',
        outcome: 'NONE',
        valueCents: null,
        detail: null,
        at: `${askedOn}T08:00:00.000Z`,
        askedOn,
      });
    await row(report, 'u1', '2031-01-02');
    await row(report, 'u2', '2031-01-02');
    await row(report, 'u3', '2031-01-03');
    await row(other, 'u4', '2031-01-02');
    expect(await repository.countAskedOn(report, '2031-01-02')).toBe(2);
    expect(await repository.countAskedOn(report, '2031-01-03')).toBe(1);
    expect(await repository.countAskedOn(report, '2031-01-04')).toBe(0);
  });
});
