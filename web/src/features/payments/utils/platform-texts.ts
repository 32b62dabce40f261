import type { Position } from '@domain/payments';
import { paymentPlatformOfConfig } from '@/lib/runtime-config';

/** Why a position's notice cannot be sent by e-mail or IO (the buttons' tooltip), on this deployment's platform. */
export function noticeUnavailableReason(position: Pick<Position, 'annullato' | 'isPagato'>): string {
  if (position.annullato) return 'Posizione annullata';
  if (position.isPagato) return 'Posizione già pagata';
  // On pagoPA GPD the portal prints the notice itself once the position is published on pagoPA.
  return paymentPlatformOfConfig() === 'gpd'
    ? 'Posizione non ancora inviata a pagoPA'
    : 'Avviso non ancora generato da MyPay';
}

/** 'Verifica / genera CSV': what the dialog does. On GPD the file lists what the export will do at pagoPA (platformCheckCsv). */
export function positionsCsvIntro(): string {
  return paymentPlatformOfConfig() === 'gpd'
    ? 'Genera o aggiorna le posizioni debitorie del mese e scarica il CSV delle posizioni da inviare a pagoPA, da verificare prima dell’invio.'
    : 'Genera o aggiorna le posizioni debitorie del mese e scarica il CSV di importazione per MyPay, da verificare prima dell’invio.';
}
