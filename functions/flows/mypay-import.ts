import { clientFromSettings } from '../adapters/fresh-client.ts';
import { MyPayFault, makeMyPay, myPayConfigFromEnv } from '../adapters/mypay.ts';
import type { MyPayImport } from './ports.ts';

/**
 * MyPay answers this when it has no import for a request token (PagamentiTelematiciDovutiPagatiHelper
 * .verificaImportDovuti: the import is recorded at the upload): the upload never reached it.
 */
const NO_FILE_FOR_TOKEN = new Set(['PAA_REQUEST_TOKEN_NON_VALIDO']);

/** MyPay's bulk import for the export's steps (MYPAY_ENDPOINT, MYPAY_COD_IPA, MYPAY_PASSWORD). */
export function myPayImport(): MyPayImport {
  // Made at the first step that needs it (a missing setting fails that step, visibly, not the cold start), and made
  // again when a rotated password reaches the warm function.
  const mypay = clientFromSettings(
    () => myPayConfigFromEnv(),
    (config) => makeMyPay(config),
  );
  return {
    authorize: () => mypay().authorize(),
    upload: (authorization, zip, fileName) => mypay().upload(authorization, zip, fileName),
    async importStatus(requestToken) {
      try {
        return await mypay().importStatus(requestToken);
      } catch (error) {
        if (error instanceof MyPayFault && NO_FILE_FOR_TOKEN.has(error.faultCode)) return null;
        throw error;
      }
    },
    download: (url) => mypay().download(url),
    importDovuto: (row) => mypay().importDovuto(row),
  };
}
