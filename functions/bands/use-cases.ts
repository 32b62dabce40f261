import type { Band, BandInput } from '../domain/bands.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';

export interface BandRepository {
  listBands(page: { limit?: number; cursor?: string }): Promise<Page<Band>>;
  getBand(id: string): Promise<Band | null>;
  createBand(input: BandInput, id: string, now: string): Promise<Band>;
  updateBand(id: string, input: BandInput, now: string): Promise<Band | null>;
  deleteBand(id: string): Promise<boolean>;
}

/** The calls side of "is this band used?": the call ↔ band links belong to the calls. */
export interface CallsUsingBands {
  bandIsUsedByCalls(bandId: string): Promise<boolean>;
}

export interface BandDeps {
  bands: BandRepository;
  calls: CallsUsingBands;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

export function makeBandUseCases({ bands, calls, audit, clock, ids }: BandDeps) {
  const requireBand = async (id: string) =>
    (await bands.getBand(id)) ?? Promise.reject(new NotFoundError(messages.band.notFound));

  return {
    listBands: (page: { limit?: number; cursor?: string }) => bands.listBands(page),

    getBand: requireBand,

    async createBand(input: BandInput, actor: Actor): Promise<Band> {
      const now = clock.now();
      const band = await bands.createBand(input, ids(), now.toISOString());
      await audit.record({ actor, entity: 'band', id: band.id, action: 'create', before: null, after: band }, now);
      return band;
    },

    async updateBand(id: string, input: BandInput, actor: Actor): Promise<Band> {
      const before = await requireBand(id);
      const now = clock.now();
      const after = await bands.updateBand(id, input, now.toISOString());
      if (!after) throw new NotFoundError(messages.band.notFound);
      await audit.record({ actor, entity: 'band', id, action: 'update', before, after }, now);
      return after;
    },

    /** A band that a call uses stays (409 with the spec's alert). */
    async deleteBand(id: string, actor: Actor): Promise<void> {
      const before = await requireBand(id);
      if (await calls.bandIsUsedByCalls(id)) throw new ConflictError(messages.band.inUse);
      if (!(await bands.deleteBand(id))) throw new NotFoundError(messages.band.notFound);
      await audit.record({ actor, entity: 'band', id, action: 'delete', before, after: null }, clock.now());
    },
  };
}

export type BandUseCases = ReturnType<typeof makeBandUseCases>;
