import { parseXml, XmlElement } from '@rgrove/parse-xml';
import { GpdUnavailable, type GpdReceipt } from './client.ts';

/**
 * A GPD receipt's document read (the receipts service's GET …/receipts/{iuv}): given to the GPD client as
 * `readReceipt` by the functions that read receipts (adapters/payment-platform.ts gpdPlatformFromEnv).
 */

const childElements = (element: XmlElement | undefined) =>
  element ? element.children.filter((c): c is XmlElement => c instanceof XmlElement) : [];
const local = (name: string) => name.slice(name.indexOf(':') + 1);
const child = (element: XmlElement | undefined, name: string) =>
  childElements(element).find((c) => local(c.name) === name);
const text = (element: XmlElement | undefined, name: string) => child(element, name)?.text.trim() ?? '';

/** The paSendRTV2 request the receipts service keeps as the receipt's document (paForNode.xsd). */
export function readReceipt(xml: string): GpdReceipt {
  const root = parseXml(xml.replace(/^<\?xml[^>]*\?>/, '').trim()).root ?? undefined;
  const receipt = child(root, 'receipt');
  const amount = text(receipt, 'paymentAmount');
  if (!receipt || !/^\d+(\.\d{1,2})?$/.test(amount)) throw new GpdUnavailable('GPD: ricevuta illeggibile');
  const [units, decimals = ''] = amount.split('.');
  const debtorId = child(child(receipt, 'debtor'), 'uniqueIdentifier');
  return {
    receiptId: text(receipt, 'receiptId'),
    noticeNumber: text(receipt, 'noticeNumber'),
    iuv: text(receipt, 'creditorReferenceId'),
    amountCents: Number(units) * 100 + Number(decimals.padEnd(2, '0')),
    paymentDateTime: text(receipt, 'paymentDateTime'),
    idPsp: text(receipt, 'idPSP'),
    pspCompanyName: text(receipt, 'PSPCompanyName'),
    debtorFiscalCode: text(debtorId, 'entityUniqueIdentifierValue'),
  };
}
