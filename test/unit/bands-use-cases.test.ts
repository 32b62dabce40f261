import { beforeEach, describe, expect, it } from 'vitest';
import { actors, portal, type Portal } from '../support/in-memory.ts';

const band = { name: 'Fascia 1', min: 0, max: 6000, percent: 10, fixedCost: 20 };
let app: Portal;
beforeEach(() => {
  app = portal();
});

describe('an operator manages ISEE bands', () => {
  it('creates a band with its hourly quota, and the audit says who did it', async () => {
    const created = await app.bands.createBand(band, actors.operator);
    expect(created).toMatchObject({ ...band, hourlyQuota: 2 });
    expect(await app.bands.getBand(created.id)).toEqual(created);
    expect(app.store.audit.entries).toEqual([
      expect.objectContaining({
        entity: 'band',
        id: created.id,
        action: 'create',
        before: null,
        after: created,
        actor: expect.objectContaining({ fullName: 'Laura Bianchi' }),
      }),
    ]);
  });

  it('edits a band and audits before and after', async () => {
    const { id } = await app.bands.createBand(band, actors.operator);
    const edited = await app.bands.updateBand(
      id,
      { ...band, name: 'Fascia rinominata', percent: null },
      actors.operator,
    );
    expect(edited).toMatchObject({ id, name: 'Fascia rinominata', hourlyQuota: 20 });
    expect(app.store.audit.entries[1]).toMatchObject({
      action: 'update',
      before: { name: 'Fascia 1' },
      after: { name: 'Fascia rinominata' },
    });
  });

  it('answers an unknown band with the spec message, and writes nothing', async () => {
    for (const attempt of [
      () => app.bands.getBand('nope'),
      () => app.bands.updateBand('nope', band, actors.operator),
      () => app.bands.deleteBand('nope', actors.operator),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ status: 404, message: 'La fascia ISEE selezionata non esiste.' });
    }
    expect(app.store.audit.entries).toEqual([]);
  });

  it('refuses to delete a band that a call uses, and keeps it; an unused one goes', async () => {
    const used = await app.bands.createBand(band, actors.operator);
    const unused = await app.bands.createBand({ ...band, name: 'Fascia libera' }, actors.operator);
    const service = await app.services.createService(
      { code: 'SAD', name: 'Assistenza', description: 'Aiuto a casa.' },
      actors.operator,
    );
    await app.calls.createCall(
      {
        serviceId: service.id,
        name: 'Bando',
        codAccertamento: 'A',
        codCapitolo: 'C',
        nomeMyPay: 'M',
        bandsId: [used.id],
        files: [],
      },
      actors.operator,
    );

    await expect(app.bands.deleteBand(used.id, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'La fascia ISEE selezionata è inclusa in un bando in corso.',
    });
    expect(await app.bands.getBand(used.id)).toEqual(used);

    await app.bands.deleteBand(unused.id, actors.operator);
    await expect(app.bands.getBand(unused.id)).rejects.toMatchObject({ status: 404 });
    expect(app.store.audit.entries.at(-1)).toMatchObject({
      entity: 'band',
      id: unused.id,
      action: 'delete',
      before: unused,
      after: null,
    });
  });

  it('lists bands by their lower bound', async () => {
    for (const min of [3000, 0, 1500]) await app.bands.createBand({ ...band, name: `Da ${min}`, min }, actors.operator);
    expect((await app.bands.listBands({})).items.map((b) => b.min)).toEqual([0, 1500, 3000]);
  });
});
