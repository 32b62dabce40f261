import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDIT_DAY_SHARDS, keys, shardOf } from '../../functions/adapters/table.ts';
import type { Actor } from '../../functions/domain/roles.ts';
import { as } from '../support/api.ts';
import { indexesCaughtUp, localTable, useLocalTable } from '../support/dynamo.ts';

/**
 * `npm run gdpr:export -- <fiscal code>` (docs/operations.md, a citizen's access request): the command itself, on
 * the local stack, gathers the citizen's records, their history and every audit entry the citizen wrote, on
 * every shard of the day and on the unsharded partition of entries older than the shards, into one file.
 */
const run = promisify(execFile);
// Each case starts the command in a new process (tsx compiles it on start): slow on a busy machine, not a timing check.
vi.setConfig({ testTimeout: 120_000 });
const CITIZEN = 'RSSMRA85C52H501N';
const today = new Date().toISOString().slice(0, 10);
let env: NodeJS.ProcessEnv;
let folder: string;

async function gdprExport(...args: string[]) {
  const out = path.join(folder, `${randomUUID()}.json`);
  const { stdout } = await run(path.resolve('node_modules/.bin/tsx'), ['bin/gdpr-export.ts', ...args, '--out', out], {
    env,
  });
  return { stdout, file: JSON.parse(await fs.readFile(out, 'utf8')) };
}

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gdpr-export-'));
  useLocalTable();
  env = { ...process.env };
});

describe('npm run gdpr:export', () => {
  it('puts the citizen records, their history and every audit entry the citizen wrote, on every shard, in one file', async () => {
    const [citizen, operator] = await Promise.all([as('citizen'), as('operator')]);
    const userId = (await citizen.get('/api/me')).json.userId as string;
    // The support form's allowance, full (another file of this worker may have used it).
    for (const item of await localTable().partition(`SUPPORTRATE#${userId}`))
      await localTable().deleteItem({ pk: item.pk, sk: item.sk });
    const ticket = (
      await citizen.post('/api/support', {
        emailUser: 'maria.rossi@example.it',
        subject: 'Altro',
        message: 'Vorrei sapere quali dati avete su di me.',
      })
    ).json;
    expect(ticket.id).toBeTruthy();
    expect(
      (
        await operator.put(`/api/tickets/${ticket.id}/modifica`, {
          stato: 1,
          categoria: 'Altro',
          dettagli: 'Presa in carico.',
          assegnatoA: 'Laura Bianchi',
        })
      ).status,
    ).toBe(200);

    // What the citizen did on records that are not theirs (the fee of some other record), spread over the day's
    // shards, one entry written before the shards (gsi1 "AUDIT#<day>"), and someone else's entry the same day.
    const { recordAuditBatch } = await import('../../functions/adapters/audit-log.ts');
    const actor = { sub: 'c', role: 'CITIZEN', fiscalCode: CITIZEN, fullName: 'Maria Rossi' } as Actor;
    const records = Array.from({ length: 48 }, (_, i) => `gdpr-${randomUUID().slice(0, 6)}-${i}`);
    expect(new Set(records.map((id) => shardOf(`call#${id}`, AUDIT_DAY_SHARDS))).size).toBeGreaterThan(
      AUDIT_DAY_SHARDS / 2,
    );
    await recordAuditBatch(
      records.map((id) => ({ actor, entity: 'call', id, action: 'update' as const, before: null, after: { n: 1 } })),
    );
    await recordAuditBatch([
      {
        actor: { ...actor, fiscalCode: 'BNCLRA79H61F205F', fullName: 'Laura Bianchi' },
        entity: 'call',
        id: 'other',
        action: 'update',
        before: null,
        after: null,
      },
    ]);
    const old = `${today}T00:00:01.000Z`;
    await localTable().putItem({
      pk: 'AUDIT#call#legacy',
      sk: `${old}#${randomUUID()}`,
      gsi1pk: keys.auditDayUnsharded(today),
      gsi1sk: old,
      at: old,
      entity: 'call',
      recordId: 'legacy',
      action: 'update',
      who: { sub: 'c', fiscalCode: CITIZEN },
      before: null,
      after: null,
    });
    await indexesCaughtUp();

    const { stdout, file } = await gdprExport(CITIZEN.toLowerCase(), '--from', today);

    expect(file).toMatchObject({ fiscalCode: CITIZEN, found: true, period: { from: today, to: today } });
    expect(file.records.user.map((item: any) => item.id)).toContain(userId);
    // Other files of this worker may have opened tickets for the same citizen: this one is in, and only hers are.
    expect(file.records.tickets.map((item: any) => item.id)).toContain(ticket.id);
    expect(file.records.tickets.every((item: any) => item.userId === userId)).toBe(true);
    // The history of the citizen's ticket: the operator's change included.
    expect(
      file.history.filter((entry: any) => entry.recordId === ticket.id).map((entry: any) => entry.who.fiscalCode),
    ).toContain('BNCLRA79H61F205F');
    // Every entry the citizen wrote that day, whichever shard (or the old partition) holds it; nobody else's.
    const actedOn = file.actions.map((entry: any) => entry.recordId);
    for (const id of [...records, 'legacy']) expect(actedOn).toContain(id);
    expect(actedOn).not.toContain('other');
    expect(file.actions.every((entry: any) => entry.who.fiscalCode === CITIZEN)).toBe(true);
    // No storage keys in the file: what the portal holds, not how.
    expect(JSON.stringify(file.records)).not.toMatch(/"(pk|gsi1pk)"/);
    expect(stdout).toContain(`${file.actions.length} azioni del cittadino`);
  }, 120_000);

  it('refuses a fiscal code that is not one, and writes no file', async () => {
    const out = path.join(folder, 'refused.json');
    await expect(
      run(path.resolve('node_modules/.bin/tsx'), ['bin/gdpr-export.ts', 'RSSMRA85C52H501X', '--out', out], { env }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('Codice fiscale non valido') });
    await expect(fs.access(out)).rejects.toThrow();
  });
});
