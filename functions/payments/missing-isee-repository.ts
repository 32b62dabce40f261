import { queryAll } from '../adapters/dynamo.ts';
import { missingIseeKeys } from './repository.ts';

/**
 * The months of a call-year that left subscribers without a position for 'ISEE scaduto o mancante'
 * (repository.ts putMissingIsee writes them), as the payment list shows them. Apart from repository.ts,
 * which the payments functions bundle whole (wired.ts takes the module): only the payment-list function reads them.
 */
export async function listMissingIsee(callId: string, anno: number) {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': missingIseeKeys.year(callId, anno) } });
  return items.map((item) => ({ mese: item.mese as number, count: item.count as number, people: item.people as { fiscalCode: string; cognome: string; nome: string }[], generatedAt: item.generatedAt as string }));
}
