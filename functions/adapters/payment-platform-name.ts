import type { PaymentPlatformName } from '../domain/payment-platform.ts';

/**
 * Which payment platform this deployment bills through (issue 37): PAYMENT_PLATFORM, set by the stage's
 * paymentPlatform (lib/gpd-binding.ts, and the flows function's environment) and locally by
 * `PAYMENT_PLATFORM=gpd npm start`; MyPay when unset.
 */
export const paymentPlatformName = (env: NodeJS.ProcessEnv = process.env): PaymentPlatformName =>
  env.PAYMENT_PLATFORM?.trim().toLowerCase() === 'gpd' ? 'gpd' : 'mypay';
