import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { fileMessages } from '../../functions/domain/files.ts';
import { noticeMessages } from '../../functions/domain/messages.ts';
import { S3_SWITCH_PATH, type MissingKeyAnswer } from '../../lib/local/stores.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { approveUser, exportMonth, operatorWithMyPay, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { billedMonth, monthFromNow } from '../support/months.ts';

/**
 * S3 answers a read of a key that is not there with 404 NoSuchKey only to a caller allowed s3:ListBucket on
 * the bucket; to one that is not — every role of the portal (test/infra/api-stack.test.ts) — it answers 403
 * AccessDenied, a HEAD a bare 403 (Amazon S3 API Reference, "Permissions" of GetObject and HeadObject:
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html). The local S3 answers as S3 answers the
 * portal's roles; its switch gives the other answer. Every path that looks for a key that may not be there
 * works with both.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let citizen: Client;
let mariaId: string;
const month = billedMonth();
const billed = month.period;

const setMissingKey = async (answer: MissingKeyAnswer) => {
  const response = await fetch(`${inject('s3Endpoint')}${S3_SWITCH_PATH}`, { method: 'PUT', body: answer });
  expect(await response.text()).toBe(answer);
};
const s3 = () =>
  new S3Client({
    endpoint: inject('s3Endpoint'),
    forcePathStyle: true,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

beforeAll(async () => {
  [operator, citizen] = await Promise.all([operatorWithMyPay(), as('citizen')]);
  mariaId = (await citizen.get('/api/me')).json.userId;
});
afterAll(() => setMissingKey('AccessDenied'));

it('the local S3 answers a missing key as S3 answers a role without s3:ListBucket, unless switched', async () => {
  const client = s3();
  const status = (command: GetObjectCommand | HeadObjectCommand) =>
    client.send(command as GetObjectCommand).then(
      () => 'found',
      (error: { name: string; $metadata: { httpStatusCode: number } }) =>
        `${error.$metadata.httpStatusCode} ${command instanceof GetObjectCommand ? error.name : ''}`.trim(),
    );
  const missing = { Bucket: 'portale-exports', Key: 'notices/P000000NONESISTE.pdf' };
  expect([await status(new HeadObjectCommand(missing)), await status(new GetObjectCommand(missing))]).toEqual([
    '403',
    '403 AccessDenied',
  ]);
  await setMissingKey('NoSuchKey');
  expect([await status(new HeadObjectCommand(missing)), await status(new GetObjectCommand(missing))]).toEqual([
    '404',
    '404 NoSuchKey',
  ]);
  await setMissingKey('AccessDenied');
  client.destroy();
});

describe.each(['AccessDenied', 'NoSuchKey'] as const)('with S3 answering a missing key %s', (answer) => {
  let call: { id: string };
  beforeAll(async () => {
    await setMissingKey(answer);
    ({ call } = await openCall(operator));
    await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).json.created).toBe(1);
    await exportMonth(operator, call.id, billed);
    // Her list and the IUD lookup read global indexes, which show the export's writes a moment later.
    await indexesCaughtUp();
  });

  it('the citizen’s payments list the exported position with a link to its notice, cut out of MyPay’s ZIP the first time', async () => {
    for (const time of ['first', 'again']) {
      const listed = await citizen.get(`/api/me/positions?callId=${call.id}`);
      expect(listed.status, `${time}: ${JSON.stringify(listed.json)}`).toBe(200);
      const [position] = listed.json.items;
      expect(position.nav).toMatch(/^3\d{17}$/);
      const notice = await fetch(position.noticeUrl as string);
      expect([notice.status, notice.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    }
  });

  it('a notice e-mail of a position whose PDF is in no ZIP reads the stored one, and says there is none when it is not there', async () => {
    const [position] = await storedPositions(call.id, month.key);
    const key = keys.position(call.id, month.key, mariaId);
    // A position exported before the ZIP was kept: its PDF only at notices/<iud>.pdf, where the citizen's link left it.
    const item = (await localTable().item(key))!;
    await localTable().putItem({ ...item, noticeZip: null });
    const sent = await operator.post(`/api/positions/${position!.iud}/email`, {});
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    // Another one with no PDF anywhere (its IUD's key never written): 409 with the reason, not a failure.
    const next = monthFromNow(1);
    const nextMonth = position!.iud.replace(`P${month.key.replace('-', '')}`, `P${next.key.replace('-', '')}`);
    await localTable().putItem({
      ...item,
      ...keys.position(call.id, next.key, mariaId),
      iud: nextMonth,
      gsi2pk: keys.positionByIud(nextMonth),
      gsi1sk: `${next.key}#${call.id}`,
      noticeZip: null,
    });
    await indexesCaughtUp();
    const none = await operator.post(`/api/positions/${nextMonth}/email`, {});
    expect([none.status, none.json.detail]).toEqual([409, noticeMessages.noPdf]);
  });

  it('claiming an upload that never reached the bucket is a 400 asking to upload again, not a failure', async () => {
    const ticket = await citizen.post('/api/uploads', {
      purpose: 'isee',
      fileName: 'isee.pdf',
      contentType: 'application/pdf',
      size: 1000,
    });
    expect(ticket.status).toBe(201);
    const claimed = await citizen.post('/api/isee', {
      document: { uploadKey: ticket.json.uploadKey, name: 'isee.pdf' },
      value: 8000,
    });
    expect([claimed.status, claimed.json.detail]).toEqual([400, fileMessages.notFound]);
  });
});
