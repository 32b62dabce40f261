import { beforeEach, describe, expect, it } from 'vitest';
import { actors, portal, type Portal } from '../support/in-memory.ts';

const service = { code: 'SAD', name: 'Assistenza domiciliare', description: 'Aiuto a casa per le persone anziane.' };
let app: Portal;
beforeEach(() => {
  app = portal();
});

describe('an operator manages services', () => {
  it('creates, edits and deletes a service, auditing each change', async () => {
    const created = await app.services.createService(service, actors.operator);
    expect(await app.services.getService(created.id)).toEqual({ id: created.id, ...service, inpsBenefitCode: null });
    await app.services.updateService(created.id, { ...service, description: 'Nuova descrizione.' }, actors.operator);
    expect((await app.services.getService(created.id)).description).toBe('Nuova descrizione.');
    await app.services.deleteService(created.id, actors.operator);
    await expect(app.services.getService(created.id)).rejects.toMatchObject({
      status: 404,
      message: 'Il servizio selezionato non esiste.',
    });
    expect(app.store.audit.entries.map((e) => [e.entity, e.action])).toEqual([
      ['service', 'create'],
      ['service', 'update'],
      ['service', 'delete'],
    ]);
  });

  it('stores the INPS benefit code its ISEE queries send; an edit that leaves it out keeps it, null clears it', async () => {
    const created = await app.services.createService({ ...service, inpsBenefitCode: 'A2.07' }, actors.operator);
    expect(created.inpsBenefitCode).toBe('A2.07');
    await app.services.updateService(created.id, { ...service, description: 'Altra descrizione.' }, actors.operator);
    expect((await app.services.getService(created.id)).inpsBenefitCode).toBe('A2.07');
    await app.services.updateService(created.id, { ...service, inpsBenefitCode: null }, actors.operator);
    expect((await app.services.getService(created.id)).inpsBenefitCode).toBeNull();
  });

  it('refuses to delete a service that has calls, and keeps it', async () => {
    const { id } = await app.services.createService(service, actors.operator);
    await app.calls.createCall(
      { serviceId: id, name: 'Bando', codAccertamento: 'A', codCapitolo: 'C', nomeMyPay: 'M', bandsId: [], files: [] },
      actors.operator,
    );
    await expect(app.services.deleteService(id, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'Il servizio non può essere eliminato perché ha dei bandi associati.',
    });
    expect((await app.services.getService(id)).name).toBe(service.name);
  });

  it('answers an edit of an unknown service with 404 and audits nothing', async () => {
    await expect(app.services.updateService('nope', service, actors.operator)).rejects.toMatchObject({ status: 404 });
    expect(app.store.audit.entries).toEqual([]);
  });
});
