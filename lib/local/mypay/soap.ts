/** What every SOAP operation shares: MyPay's faults, the entity's credentials, the arguments as strings. */
import type { SimulatedEntity } from './model.ts';

export class SoapFault {
  constructor(
    readonly faultCode: string,
    readonly faultString: string,
    readonly description?: string,
  ) {}
}

export type Args = Record<string, unknown>;
export type Headers = { intestazionePPT?: { codIpaEnte?: string } } | undefined;

/** The entity named by codIpa whose password is `password`, or MyPay's PAA_ENTE_NON_VALIDO. */
export const entityChecker =
  (entity: (codIpa: string) => SimulatedEntity | undefined) =>
  (codIpa: string | undefined, password: string | undefined) => {
    const e = codIpa ? entity(codIpa) : undefined;
    if (!e) throw new SoapFault('PAA_ENTE_NON_VALIDO', 'Ente non valido', `codIpaEnte "${codIpa ?? ''}" sconosciuto`);
    if (password !== e.password) throw new SoapFault('PAA_ENTE_NON_VALIDO', 'Password non valida');
    return e;
  };

export const str = (value: unknown) =>
  value === undefined || value === null
    ? undefined
    : value instanceof Date
      ? value.toISOString().slice(0, 10)
      : String(value);
/** An operation for soap.listen: a SoapFault thrown by `run` is answered as MyPay's fault. */
export const withFaults =
  (run: (args: Args, headers: Headers) => Promise<object> | object) =>
  async (args: Args, _callback: unknown, headers: Headers) => {
    try {
      return await run(args ?? {}, headers);
    } catch (error) {
      if (error instanceof SoapFault) {
        const fault = {
          faultCode: error.faultCode,
          faultString: error.faultString,
          id: headers?.intestazionePPT?.codIpaEnte ?? 'MYPAY',
          description: error.description,
        };
        return { fault };
      }
      throw error;
    }
  };

export type Operation = ReturnType<typeof withFaults>;
