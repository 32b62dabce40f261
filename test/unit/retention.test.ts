import { describe, expect, it } from 'vitest';
import {
  expiresAfter,
  paymentRecordExpiry,
  retentionEnvName,
  retentionYears,
} from '../../functions/domain/retention.ts';

/** When DynamoDB's TTL may delete an item (epoch seconds), per kind of data (README "Retention"). */
const day = (iso: string) => Date.parse(iso) / 1000;

describe('retention', () => {
  it('keeps a payment record ten years from the end of its year (codice civile art. 2220), never less', () => {
    // A position of November 2026 goes in 2037, not in 2036.
    expect(paymentRecordExpiry(2026, 10)).toBe(day('2037-01-01T00:00:00Z'));
  });

  it('keeps an audit entry or a support message its years from the day it was written', () => {
    expect(expiresAfter(new Date('2026-03-02T10:00:00.000Z'), 10)).toBe(day('2036-03-02T10:00:00Z'));
    expect(expiresAfter(new Date('2028-02-29T12:00:00.000Z'), 2)).toBe(day('2030-03-01T12:00:00Z'));
  });

  it('reads the years from the function’s environment, the default when unset or not a number', () => {
    expect(retentionEnvName('supportMessages')).toBe('RETENTION_SUPPORT_MESSAGES_YEARS');
    expect(retentionYears('supportMessages', { RETENTION_SUPPORT_MESSAGES_YEARS: '5' })).toBe(5);
    expect(retentionYears('supportMessages', {})).toBe(2);
    expect(retentionYears('paymentRecords', { RETENTION_PAYMENT_RECORDS_YEARS: 'x' })).toBe(10);
  });
});
