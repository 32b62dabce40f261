import { afterEach, describe, expect, it, vi } from 'vitest';
import { flowMessages } from '../../../functions/domain/flows.ts';
import { onPlatform as onNamedPlatform } from '../../../functions/domain/payment-platform.ts';

/**
 * Issue 37: the spec's texts that name MyPay ('Flussi MyPay', 'Flusso inviato correttamente a MyPay', 'invio a MyPay')
 * read pagoPA on a deployment on GPD (/config.json paymentPlatform), and exactly the spec's on MyPay.
 */
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** The web's helpers with /config.json saying `paymentPlatform` (a fresh module each time: the config is loaded once). */
async function webOn(paymentPlatform?: 'mypay' | 'gpd') {
  vi.stubGlobal('fetch', async () =>
    Response.json({ apiBaseUrl: '', issuer: 'x', clientId: 'y', scope: 'openid', paymentPlatform }),
  );
  const config = await import('../../../web/src/lib/runtime-config.ts');
  await config.loadRuntimeConfig();
  const { trailFor } = await import('../../../web/src/app/layout/breadcrumbs.tsx');
  const { onPlatform } = await import('../../../web/src/lib/platform.ts');
  const { singlePaymentTexts } = await import('../../../web/src/features/enrolments/utils/single-payment-texts.ts');
  const { noticeUnavailableReason, positionsCsvIntro } =
    await import('../../../web/src/features/payments/utils/platform-texts.ts');
  const { configurationIntro } = await import('../../../web/src/features/configuration/utils/configuration-texts.ts');
  const { platformFieldLabels } = await import('../../../web/src/lib/platform.ts');
  return {
    trailFor,
    onPlatform,
    singlePaymentTexts,
    noticeUnavailableReason,
    positionsCsvIntro,
    configurationIntro,
    platformFieldLabels,
  };
}

// Each test imports the web's layout afresh (Amplify UI): seconds on a loaded machine.
describe('the platform’s name in the spec’s texts', { timeout: 60_000 }, () => {
  it('on MyPay (or when config.json does not say): the spec’s words, unchanged', async () => {
    for (const platform of [undefined, 'mypay'] as const) {
      const { trailFor, onPlatform, platformFieldLabels } = await webOn(platform);
      expect(trailFor('/flussi_mypay', 'OPERATOR').at(-1)).toEqual({ label: 'Flussi MyPay' });
      expect(platformFieldLabels()).toEqual({ callName: 'Nome MyPay', serviceCode: 'Codice MyPay' });
      expect(onPlatform(flowMessages.started)).toBe('Flusso inviato correttamente a MyPay');
      vi.resetModules();
    }
  });

  it('on pagoPA GPD: the breadcrumb, the send dialog and the lock message name pagoPA', async () => {
    const { trailFor, onPlatform, platformFieldLabels } = await webOn('gpd');
    expect(trailFor('/flussi_mypay', 'OPERATOR').at(-1)).toEqual({ label: 'Flussi pagoPA' });
    // The call's nomeMyPay and the service's code: the spec's "payment-platform name", no MyPay on GPD.
    expect(platformFieldLabels()).toEqual({
      callName: 'Nome sulla piattaforma dei pagamenti',
      serviceCode: 'Codice sulla piattaforma dei pagamenti',
    });
    expect(onPlatform('Flussi MyPay')).toBe('Flussi pagoPA');
    expect(onPlatform(flowMessages.started)).toBe('Flusso inviato correttamente a pagoPA');
    expect(onNamedPlatform(flowMessages.exportRunning, 'gpd')).toBe(
      'È già in corso un invio a pagoPA per questo bando: attendi che finisca.',
    );
    expect(onNamedPlatform(flowMessages.exportRunning, 'mypay')).toBe(flowMessages.exportRunning);
  });

  it('on pagoPA GPD no MyPay-only word on the call’s and the citizen’s money screens; on MyPay the same texts as before', async () => {
    const open = { annullato: false, isPagato: false };
    const gpd = await webOn('gpd');
    expect(gpd.singlePaymentTexts('Rossi Maria')).toEqual({
      message: 'Confermi di inviare a pagoPA la posizione di questo mese di Rossi Maria?',
      done: 'Invio a pagoPA avviato: l’avanzamento è in Flussi pagoPA.',
    });
    expect(gpd.noticeUnavailableReason(open)).toBe('Posizione non ancora inviata a pagoPA');
    expect(gpd.noticeUnavailableReason({ ...open, annullato: true })).toBe('Posizione annullata');
    expect(gpd.noticeUnavailableReason({ ...open, isPagato: true })).toBe('Posizione già pagata');
    expect(gpd.positionsCsvIntro()).toContain('il CSV delle posizioni da inviare a pagoPA');
    expect(gpd.configurationIntro()).toMatch(/^Questo ente riceve i pagamenti con pagoPA/);
    for (const text of [
      ...Object.values(gpd.singlePaymentTexts('Rossi Maria')),
      gpd.noticeUnavailableReason(open),
      gpd.positionsCsvIntro(),
    ])
      expect(text).not.toContain('MyPay');
    vi.resetModules();

    const mypay = await webOn('mypay');
    expect(mypay.singlePaymentTexts('Rossi Maria')).toEqual({
      message: 'Confermi di inviare a MyPay la posizione di questo mese di Rossi Maria?',
      done: 'Invio a MyPay avviato: l’avanzamento è in Flussi MyPay.',
    });
    expect(mypay.noticeUnavailableReason(open)).toBe('Avviso non ancora generato da MyPay');
    expect(mypay.positionsCsvIntro()).toBe(
      'Genera o aggiorna le posizioni debitorie del mese e scarica il CSV di importazione per MyPay, da verificare prima dell’invio.',
    );
    expect(mypay.configurationIntro()).toBe(
      'Parametri della piattaforma di pagamento MyPay usati per generare le posizioni debitorie e il CSV di importazione.',
    );
  });
});
