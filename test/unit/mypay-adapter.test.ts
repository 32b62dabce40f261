import { describe, expect, it } from 'vitest';
import { makeMyPay, myPayConfigFromEnv } from '../../functions/adapters/mypay.ts';
import { centsToDecimal, decimalToCents } from '../../functions/domain/money.ts';

/** How the adapter classifies what comes back (the happy paths run against the simulator in test/integration/mypay.test.ts). */
const answering = (status: number, body: string, contentType = 'text/xml') =>
  (async () => new Response(body, { status, headers: { 'content-type': contentType } })) as unknown as typeof fetch;
const client = (fetchImpl: typeof fetch) =>
  makeMyPay(
    { endpoint: 'http://mypay.test/pa', codIpaEnte: 'C_DEMO', password: 'Password1!', timeoutMs: 200 },
    fetchImpl,
  );
const envelope = (inner: string) =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const fail = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );

describe('MyPay adapter: errors a Step Functions Retry/Catch can match by name', () => {
  it('is MyPayFault, with its code, for a fault in the answer', async () => {
    const body = envelope(
      '<ppt:paaSILAutorizzaImportFlussoRisposta xmlns:ppt="x"><fault><faultCode>PAA_ENTE_NON_VALIDO</faultCode><faultString>Ente non valido</faultString><id>C_DEMO</id><description>sconosciuto</description></fault></ppt:paaSILAutorizzaImportFlussoRisposta>',
    );
    expect(await fail(client(answering(200, body)).authorize())).toMatchObject({
      name: 'MyPayFault',
      operation: 'paaSILAutorizzaImportFlusso',
      faultCode: 'PAA_ENTE_NON_VALIDO',
      faultString: 'Ente non valido',
      description: 'sconosciuto',
    });
  });

  it("is MyPayUnavailable for MyPay's own PAA_SYSTEM_ERROR, a 5xx page, a SOAP Server fault, a refused connection or a timeout", async () => {
    const systemError = envelope(
      '<r><fault><faultCode>PAA_SYSTEM_ERROR</faultCode><faultString>Errore</faultString><id>x</id></fault></r>',
    );
    const serverFault = envelope(
      '<soap:Fault><faultcode>soap:Server</faultcode><faultstring>boom</faultstring></soap:Fault>',
    );
    const refused = (async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as typeof fetch;
    const never = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      )) as unknown as typeof fetch;
    for (const fetchImpl of [
      answering(200, systemError),
      answering(503, '<html>503</html>', 'text/html'),
      answering(500, serverFault),
      refused,
      never,
    ]) {
      const error = await fail(client(fetchImpl).authorize());
      expect(error.name).toBe('MyPayUnavailable');
    }
    expect((await fail(client(never).authorize())).message).toContain('no answer within 200 ms');
    expect((await fail(client(refused).authorize())).message).toContain('ECONNREFUSED');
  });

  it("ends 'Paga' (paaSILVerificaAvviso) and its outcome (paaSILChiediPagati) inside the caller's deadline, not after MyPay's 10 s, so the 10 s function answers in Italian", async () => {
    let calls = 0;
    const never = ((_url: string, init: RequestInit) => {
      calls += 1;
      return new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    }) as unknown as typeof fetch;
    // The default per-call timeout (10 s), as deployed: the deadline is what cuts it.
    const checkout = makeMyPay(
      { endpoint: 'http://mypay.test/pa', codIpaEnte: 'C_DEMO', password: 'Password1!' },
      never,
    );
    const budget = (message: string) => Number(/no answer within (\d+) ms/.exec(message)?.[1]);
    const open = await fail(
      checkout.openPositionCheckout('01000000001234519', 'https://portale.test/iscrizioni', Date.now() + 1200),
    );
    expect(open.name).toBe('MyPayUnavailable');
    expect(budget(open.message)).toBeLessThanOrEqual(700); // the 1.2 s left, less the margin to answer
    const outcome = await fail(checkout.paymentOutcome('sessione-1', Date.now() + 1200));
    expect(outcome.name).toBe('MyPayUnavailable');
    expect(budget(outcome.message)).toBeLessThanOrEqual(700);
    // No time left at all: MyPay is not even asked.
    expect((await fail(checkout.paymentOutcome('sessione-1', Date.now() + 100))).name).toBe('MyPayUnavailable');
    expect(calls).toBe(2);
  });

  it('is MyPayFault for a SOAP Client fault, a 4xx or an answer that is not SOAP', async () => {
    const clientFault = envelope(
      '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad request</faultstring></soap:Fault>',
    );
    for (const fetchImpl of [
      answering(500, clientFault),
      answering(404, 'not found', 'text/plain'),
      answering(200, 'not xml'),
    ]) {
      expect((await fail(client(fetchImpl).authorize())).name).toBe('MyPayFault');
    }
  });

  it('is MyPayFault when a required field is missing from the answer', async () => {
    const body = envelope('<r><uploadUrl>http://u</uploadUrl><authorizationToken>a</authorizationToken></r>');
    expect(await fail(client(answering(200, body)).authorize())).toMatchObject({
      name: 'MyPayFault',
      faultCode: 'RISPOSTA_INCOMPLETA',
    });
  });

  it('escapes what it sends in the envelope', async () => {
    let sent = '';
    const capture = (async (_url: string, init: RequestInit) => {
      sent = String(init.body);
      return new Response(envelope('<r><stato>LOAD_IMPORT</stato></r>'), { status: 200 });
    }) as unknown as typeof fetch;
    await client(capture).importStatus('a<b>&"c\'');
    expect(sent).toContain('<requestToken>a&lt;b&gt;&amp;&quot;c&apos;</requestToken>');
    expect(sent).toContain('<ppthead:intestazionePPT><codIpaEnte>C_DEMO</codIpaEnte></ppthead:intestazionePPT>');
  });
});

describe('MyPay amounts and configuration', () => {
  it('converts decimal amounts and cents exactly', () => {
    expect(decimalToCents('66.43')).toBe(6643);
    expect(decimalToCents('10.5')).toBe(1050);
    expect(decimalToCents('7')).toBe(700);
    expect(decimalToCents('0.29')).toBe(29); // 0.29 * 100 is 28.999… in floating point
    expect(() => decimalToCents('12,50')).toThrow();
    expect(centsToDecimal(6643)).toBe('66.43');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(120000)).toBe('1200.00');
  });

  it('reads the deployment settings and refuses to start without them', () => {
    expect(
      myPayConfigFromEnv({
        MYPAY_ENDPOINT: 'http://x',
        MYPAY_COD_IPA: 'C_DEMO',
        MYPAY_PASSWORD: 'p',
        MYPAY_TIMEOUT_MS: '5000',
      }),
    ).toEqual({
      endpoint: 'http://x',
      codIpaEnte: 'C_DEMO',
      password: 'p',
      timeoutMs: 5000,
      modelloUnico: true,
    });
    expect(() => myPayConfigFromEnv({ MYPAY_COD_IPA: 'C_DEMO', MYPAY_PASSWORD: 'p' })).toThrow(/MYPAY_ENDPOINT/);
    expect(() => myPayConfigFromEnv({ MYPAY_ENDPOINT: 'http://x', MYPAY_COD_IPA: 'C_DEMO' })).toThrow(/MYPAY_PASSWORD/);
    const fromSecret = async () => 'dal-secret';
    expect(myPayConfigFromEnv({ MYPAY_ENDPOINT: 'http://x', MYPAY_COD_IPA: 'C_DEMO' }, fromSecret).password).toBe(
      fromSecret,
    );
  });
});
