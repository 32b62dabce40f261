import { describe, expect, it } from 'vitest';
import { portalStateOfGpd, type GpdStatus } from '../../functions/domain/gpd.ts';
import type { PlatformPositionState } from '../../functions/domain/payment-platform.ts';
import { platformSync } from '../../functions/domain/platform-sync.ts';
import { exportedPosition } from '../support/position-records.ts';

/** 'Sincronizza' on GPD (domain/platform-sync.ts): what the portal does with a sent position, given GPD's state of it. */
const at = '2026-04-10T08:00:00.000Z';
const now = '2026-04-20T08:00:00.000Z';
const position = exportedPosition(at);
const gpdSays = (status: GpdStatus, payments: PlatformPositionState['payments'] = []): PlatformPositionState => {
  const { state, payable } = portalStateOfGpd(status);
  return { iud: position.iud, state, payable, platformState: status, payments };
};
const paid = { iud: position.iud, iuv: position.codIuv!, amountCents: 6643, paidOn: '2026-04-18', receiptId: 'R-1' };

describe('Sincronizza reads GPD’s state', () => {
  it('a position paid at GPD (through pagoPA or outside it) gives its payments to record, as the reporting does', () => {
    expect(platformSync(position, gpdSays('PAID', [paid]), now)).toEqual({ kind: 'settle', payments: [paid] });
    expect(platformSync(position, gpdSays('REPORTED', [paid]), now)).toEqual({ kind: 'settle', payments: [paid] });
  });

  it('a position invalidated at GPD is cancelled here, with nothing left to send (GPD holds it INVALID already)', () => {
    const sync = platformSync(position, gpdSays('INVALID'), now);
    expect(sync.kind).toBe('cancel');
    if (sync.kind !== 'cancel') return;
    expect(sync.transition).toMatchObject({
      name: 'cancel',
      after: { annullato: true, importoAnnullato: 6643, statoExport: 'ESPORTATA', version: 4, updatedAt: now },
    });
    expect(sync.transition.guard).toContainEqual({ kind: 'version', version: 3 });
  });

  it('a position GPD holds unpayable but that can be again (EXPIRED, DRAFT) is marked to send again, same amount', () => {
    for (const status of ['EXPIRED', 'DRAFT'] as const) {
      const sync = platformSync(position, gpdSays(status), now);
      expect(sync.kind).toBe('republish');
      if (sync.kind !== 'republish') continue;
      expect(sync.transition.after).toMatchObject({ statoExport: 'DA_ESPORTARE', azione: 'M', importoDovuto: 6643 });
    }
  });

  it('nothing for a payable position, one GPD does not know, one already pending, or one paid or cancelled here', () => {
    expect(platformSync(position, gpdSays('VALID'), now)).toEqual({ kind: 'none' });
    expect(platformSync(position, gpdSays('PUBLISHED'), now)).toEqual({ kind: 'none' });
    expect(platformSync(position, null, now)).toEqual({ kind: 'none' });
    expect(platformSync({ ...position, statoExport: 'DA_ESPORTARE' }, gpdSays('EXPIRED'), now)).toEqual({
      kind: 'none',
    });
    expect(platformSync({ ...position, isPagato: true }, gpdSays('PAID', [paid]), now)).toEqual({ kind: 'none' });
    expect(platformSync({ ...position, annullato: true }, gpdSays('INVALID'), now)).toEqual({ kind: 'none' });
    expect(platformSync({ ...position, exportedAt: null }, gpdSays('INVALID'), now)).toEqual({ kind: 'none' });
  });
});
