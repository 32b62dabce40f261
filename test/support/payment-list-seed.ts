import { useLocalTable } from './dynamo.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from './stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { randomFiscalCode } from './isee.ts';

/** `count` (10,000 by default) payment-list rows of a call written straight into the table (with their totals), as the refresh would. */
export async function seedBigPaymentList(callId: string, year: number, run: string, count = 10_000) {
  useLocalTable();
  const { debtSummaryItem } = await import('../../functions/payment-list/repository.ts');
  const { summarize, addTotals, zeroTotals } = await import('../../functions/domain/debt-summaries.ts');
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const items: Record<string, unknown>[] = [];
  let totals = zeroTotals();
  for (let i = 0; i < count; i++) {
    const userId = `big-${run}-${i}`;
    const summary = summarize({
      callId,
      anno: year,
      userId,
      person: {
        cognome: `Cognome${String(i).padStart(5, '0')}`,
        nome: 'Nome',
        codiceFiscale: randomFiscalCode(),
        telefono: '3331234567',
        email: `${userId}@example.it`,
      },
      positions: [1, 2, 3].map((mese) => ({
        id: `P${year}0${mese}${i}`,
        mese,
        importoDovuto: 1000 + (i % 97) * 10,
        importoTotalePagato: 0,
        isPagato: mese === 1,
        annullato: false,
        isEmailSent: false,
        cognome: '',
        nome: '',
        fiscalCode: '',
      })),
    })!;
    totals = addTotals(totals, summary.contribution);
    items.push(debtSummaryItem({ ...summary, version: 1, updatedAt: new Date().toISOString() }));
  }
  items.push({ ...keys.debtTotals(callId, year), callId, anno: year, ...totals });
  for (let i = 0; i < items.length; i += 25) {
    let request: Record<string, any> | undefined = {
      [TABLE_NAME]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    while (request && Object.keys(request).length)
      request = (await client.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
  }
}
