import type { PositionRecord } from '../domain/debt-positions.ts';
import { periodKey } from '../domain/period.ts';
import { batchGet, queryAll } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { missingIseeKeys, toPositionRecord } from './repository.ts';

/*
 * What the payment list (functions/payment-list) reads of the positions' items. Apart from repository.ts,
 * which the payments functions bundle whole (functions/entry/wired-payments.ts takes the module).
 */

/**
 * The months of a call-year that left subscribers without a position for 'ISEE scaduto o mancante'
 * (repository.ts putMissingIsee writes them), as the payment list shows them.
 */
export async function listMissingIsee(callId: string, anno: number) {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': missingIseeKeys.year(callId, anno) },
  });
  return items.map((item) => ({
    mese: item.mese as number,
    count: item.count as number,
    people: item.people as { fiscalCode: string; cognome: string; nome: string }[],
    generatedAt: item.generatedAt as string,
  }));
}

/**
 * The positions of these citizens in these calls and years (the payment list's refresh): the twelve month
 * keys of each, read consistently from the table (a GSI could miss a position written a moment ago).
 */
export async function positionsOfYears(
  which: readonly { callId: string; anno: number; userId: string }[],
): Promise<PositionRecord[]> {
  const requestKeys = which.flatMap((k) =>
    Array.from({ length: 12 }, (_, m) => keys.position(k.callId, periodKey({ anno: k.anno, mese: m + 1 }), k.userId)),
  );
  return (await batchGet(requestKeys, { consistent: true })).map(toPositionRecord);
}
