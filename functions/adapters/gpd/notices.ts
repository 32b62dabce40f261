import { createHash } from 'node:crypto';
import type { PositionRecord } from '../../domain/debt-positions.ts';
import { NOTICE_PDF_PREFIX } from '../../domain/position-rules.ts';
import { noticeDueDay, pagoPaNotice, type NoticeCreditor } from '../../domain/payment-notice.ts';
import type { PlatformNotices } from '../../domain/payment-platform.ts';
import { paymentNoticePdf } from '../payment-notice-pdf.ts';

/**
 * GPD's notices (issue 37): GPD makes no PDF, so the portal prints pagoPA's notice of the position itself, whenever
 * it is asked for (a few milliseconds, a few KB). A link's copy is kept under a key that names what the notice says
 * (the position's fields it prints and the council's), so a changed amount or name is printed anew.
 */
export function gpdNotices(
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> },
  creditor: () => NoticeCreditor,
): PlatformNotices {
  return {
    async notice(position) {
      if (!position.nav) return null;
      // The printed due date comes from when GPD first took the position (exportedAt): a listed position lacks it.
      const record = 'exportedAt' in position ? position : await positions.getPositionByIud(position.iud);
      if (!record?.nav) return null;
      return { pdf: paymentNoticePdf(pagoPaNotice(record, creditor())), dueDay: noticeDueDay(record) };
    },
    dueDay: noticeDueDay,
    storedKey(position) {
      if (!position.nav) return null;
      const { fiscalCode, name, cbill } = creditor();
      // exportedAt (the printed due date) is set once, with the notice number, so the notice number stands for it.
      const printed = [
        position.nav,
        position.importoDovuto,
        position.dataScadenza,
        position.fiscalCode,
        position.nome,
        position.cognome,
        position.titolo,
        position.descrizione,
        fiscalCode,
        name,
        cbill ?? '',
      ];
      const digest = createHash('sha256').update(JSON.stringify(printed)).digest('hex').slice(0, 16);
      return `${NOTICE_PDF_PREFIX}${position.iud}-${digest}.pdf`;
    },
  };
}

/** The council as its GPD notices name it: the deployment's GPD settings (lib/gpd-binding.ts). */
export function noticeCreditorFromEnv(env: NodeJS.ProcessEnv = process.env): NoticeCreditor {
  const fiscalCode = env.GPD_ORGANIZATION_FISCAL_CODE?.trim();
  const name = env.GPD_COMPANY_NAME?.trim();
  if (!fiscalCode || !name)
    throw new Error('Missing environment variable GPD_ORGANIZATION_FISCAL_CODE or GPD_COMPANY_NAME (notices on GPD)');
  return { fiscalCode, name, cbill: env.GPD_CBILL_CODE?.trim() || null };
}
