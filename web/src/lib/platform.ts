import { onPlatform as onNamedPlatform } from '@domain/payment-platform';
import { paymentPlatformOfConfig } from './runtime-config';

/**
 * The spec's texts that name MyPay as the platform ('Flussi MyPay', 'Flusso inviato correttamente a MyPay'), as they
 * read on this deployment's platform (/config.json paymentPlatform): 'pagoPA' on GPD, unchanged on MyPay.
 */
export const onPlatform = (text: string): string => onNamedPlatform(text, paymentPlatformOfConfig());
