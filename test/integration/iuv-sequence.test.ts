import { beforeAll, describe, expect, it } from 'vitest';
import { localTable, useLocalTable } from '../support/dynamo.ts';
import { isCouncilIuv, MAX_IUV_BASE } from '../../functions/domain/gpd.ts';

/**
 * The council's IUV sequence for GPD on the local DynamoDB: reservations made at the same time (two exports of
 * different calls) get disjoint blocks, each block is one UpdateItem, and the sequence never runs past the IUV's
 * 13-digit base.
 */
let sequence: typeof import('../../functions/positions/iuv-sequence.ts');

beforeAll(async () => {
  useLocalTable();
  sequence = await import('../../functions/positions/iuv-sequence.ts');
});

const counter = (segregationCode: string) => ({ pk: 'COUNTER#GPD_IUV', sk: `SEGREGATION#${segregationCode}` });

describe('IUV sequence', () => {
  it('reservations made at once get disjoint blocks of valid IUVs of the council, with no number given twice', async () => {
    const blocks = await Promise.all([
      sequence.reserveIuvs('47', 10_000),
      sequence.reserveIuvs('47', 10_000),
      sequence.reserveIuvs('47', 3),
      ...Array.from({ length: 20 }, () => sequence.reserveIuvs('47', 1)),
    ]);
    const all = blocks.flat();
    expect(all).toHaveLength(20_023);
    expect(new Set(all).size).toBe(all.length);
    expect(all.every((iuv) => iuv.length === 17 && isCouncilIuv(iuv, '47'))).toBe(true);
    // Each block is consecutive numbers: the whole month of one export, from one reservation.
    for (const block of blocks) {
      const bases = block.map((iuv) => Number(iuv.slice(2, 15)));
      expect(bases).toEqual(bases.map((_, i) => bases[0]! + i));
    }
    // The counter holds the last number given, and the next reservation starts after it.
    const { last } = (await localTable().item(counter('47')))!;
    expect(Math.max(...all.map((iuv) => Number(iuv.slice(2, 15))))).toBe(last);
    expect(await sequence.reserveIuvNumbers('47', 2)).toEqual({ first: Number(last) + 1, last: Number(last) + 2 });
  });

  it('a segregation code has its own sequence', async () => {
    const [a] = await sequence.reserveIuvs('46', 1);
    const [b] = await sequence.reserveIuvs('45', 1);
    expect(a!.startsWith('46')).toBe(true);
    expect(b!.startsWith('45')).toBe(true);
  });

  it('a block that would pass the 13-digit base is refused whole, and the counter stays where it was', async () => {
    await localTable().putItem({ ...counter('44'), last: MAX_IUV_BASE - 5 });
    await expect(sequence.reserveIuvs('44', 6)).rejects.toMatchObject({
      name: 'IuvSequenceExhausted',
      message: expect.stringContaining('non ha più 6 numeri liberi'),
    });
    expect((await localTable().item(counter('44')))!.last).toBe(MAX_IUV_BASE - 5);
    const lastFive = await sequence.reserveIuvs('44', 5);
    expect(lastFive.at(-1)!.slice(2, 15)).toBe('9999999999999');
  });

  it('a bad segregation code or count is refused before anything is written', async () => {
    await expect(sequence.reserveIuvs('4', 1)).rejects.toThrow('codice di segregazione non valido');
    await expect(sequence.reserveIuvs('43', 0)).rejects.toThrow('quantità di IUV da riservare non valida');
    await expect(sequence.reserveIuvs('43', 1.5)).rejects.toThrow('quantità di IUV da riservare non valida');
    expect(await localTable().item(counter('43'))).toBeUndefined();
  });
});
