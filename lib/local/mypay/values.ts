/** Small helpers of the MyPay simulator: times, tokens, HTML escaping, amounts, dates, XML children. */
import { randomBytes } from 'node:crypto';
import { XmlElement } from '@rgrove/parse-xml';
import { romeDay } from '../../../functions/domain/period.ts';

export const now = () => new Date().toISOString();
/** MyPay runs in Italy: the day a payment is dated, and the days an export spans, are Rome's. */
export const today = () => romeDay(new Date());
export const token = () => randomBytes(18).toString('base64url');

export const escapeHtml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!);
export const centsFromDecimal = (text: string) => {
  const [units, decimals = ''] = text.split('.');
  return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
};
export const decimalFromCents = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
export const euro = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
export const isRealDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

export const elementsOf = (element: XmlElement | undefined) =>
  element ? element.children.filter((c): c is XmlElement => c instanceof XmlElement) : [];
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);
export const childOf = (element: XmlElement | undefined, name: string) =>
  elementsOf(element).find((c) => localName(c.name) === name);
export const textOf = (element: XmlElement | undefined, name: string) => childOf(element, name)?.text.trim() ?? '';
