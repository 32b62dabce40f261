import { describe, expect, it } from 'vitest';
import { summarize } from '../../functions/domain/debt-summaries.ts';
import { debtSummaryItem } from '../../functions/payment-list/repository.ts';

/**
 * A month's generation rewrites the payment-list row of every citizen of the call-year, and each row is on four
 * to six global indexes: one partition of an index takes at most 1,000 writes a second, and an index that cannot
 * keep up throttles the table's writes ("Best practices for designing and using partition keys effectively",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html; "Using write
 * sharding to distribute workloads evenly", .../bp-partition-key-sharding.html; a GSI's partitions:
 * .../throttling-key-range-limit-exceeded-mitigation.html). The rows' index keys are spread over shards.
 */
const rowOf = (i: number, senzaEmail: boolean) => {
  const userId = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const summary = summarize({
    callId: 'call-1',
    anno: 2026,
    userId,
    person: {
      cognome: `Rossi${i % 50}`,
      nome: 'Anna',
      codiceFiscale: `RSSNNA80A41H501${String.fromCharCode(65 + (i % 26))}`,
      telefono: null,
      email: senzaEmail ? null : 'a@example.it',
    },
    positions: [
      {
        id: `P202603${i}`,
        mese: 3,
        importoDovuto: 1000 + i,
        importoTotalePagato: 0,
        isPagato: false,
        annullato: false,
        isEmailSent: !senzaEmail,
        cognome: '',
        nome: '',
        fiscalCode: '',
      },
    ],
  })!;
  return debtSummaryItem({ ...summary, version: 1, updatedAt: '2026-03-01T00:00:00.000Z' });
};

describe('the payment list rows of a call-year', () => {
  it('spread over the shards of each index evenly, a citizen always in the same one', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => rowOf(i, i % 2 === 0)) as Record<string, unknown>[];
    for (const index of ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6']) {
      const perPartition = new Map<string, number>();
      for (const row of rows)
        if (row[`${index}pk`])
          perPartition.set(String(row[`${index}pk`]), (perPartition.get(String(row[`${index}pk`])) ?? 0) + 1);
      const written = [...perPartition.values()].reduce((a, b) => a + b, 0);
      // Spread: the call-year's rows land in several partitions of the index, none taking more than a tenth above
      // its share (however many shards the keys use).
      expect(perPartition.size, index).toBeGreaterThan(1);
      expect(Math.max(...perPartition.values()), index).toBeLessThan((written / perPartition.size) * 1.1);
    }
    expect(rowOf(7, false).gsi1pk).toBe(rowOf(7, true).gsi1pk);
    expect(rowOf(7, true).gsi3pk).toBe(`${rowOf(7, true).gsi1pk}#NOMAIL`);
  }, 60_000); // 10,000 rows through the key builder: a second idle, several on a busy machine.
});
