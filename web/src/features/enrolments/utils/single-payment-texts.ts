import { onPlatform } from '@/lib/platform';

/** 'Pagamento singolo': the question and the answer, naming the platform the council bills through. */
export const singlePaymentTexts = (who: string) => ({
  message: `${onPlatform('Confermi di inviare a MyPay la posizione di questo mese di')} ${who}?`,
  done: onPlatform('Invio a MyPay avviato: l’avanzamento è in Flussi MyPay.'),
});
