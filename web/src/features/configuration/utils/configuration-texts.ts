import { paymentPlatformOfConfig } from '@/lib/runtime-config';

/**
 * What /configurazione says its eight parameters are for. They are MyPay's: on a council billing through pagoPA GPD
 * they are not used (the month's verification CSV is pagoPA's), and pagoPA's own settings (the council's fiscal code, segregation
 * code, IBAN, taxonomy code) belong to the deployment, not to this page (README, 'Piattaforma di pagamento').
 */
export function configurationIntro(): string {
  return paymentPlatformOfConfig() === 'gpd'
    ? 'Questo ente riceve i pagamenti con pagoPA: le posizioni debitorie sono pubblicate su pagoPA con le impostazioni dell’ente (codice fiscale, codice di segregazione, IBAN e codice tassonomico), che non si modificano da questa pagina. I parametri qui sotto sono quelli di MyPay e non si usano con pagoPA.'
    : 'Parametri della piattaforma di pagamento MyPay usati per generare le posizioni debitorie e il CSV di importazione.';
}
