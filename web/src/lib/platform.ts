import { onPlatform as onNamedPlatform } from '@domain/payment-platform';
import { paymentPlatformOfConfig } from './runtime-config';

/**
 * The spec's texts that name MyPay as the platform ('Flussi MyPay', 'Flusso inviato correttamente a MyPay'), as they
 * read on this deployment's platform (/config.json paymentPlatform): 'pagoPA' on GPD, unchanged on MyPay.
 */
export const onPlatform = (text: string): string => onNamedPlatform(text, paymentPlatformOfConfig());

/**
 * The labels of the call's nomeMyPay and of the service's code: MyPay's words on MyPay; on GPD, where nothing is
 * called so, the spec's own description of the field ("payment-platform name").
 */
export const platformFieldLabels = (): { callName: string; serviceCode: string } =>
  paymentPlatformOfConfig() === 'gpd'
    ? { callName: 'Nome sulla piattaforma dei pagamenti', serviceCode: 'Codice sulla piattaforma dei pagamenti' }
    : { callName: 'Nome MyPay', serviceCode: 'Codice MyPay' };
