import { describe, expect, it } from 'vitest';
import {
  acceptAmountInput,
  acceptPercentInput,
  formatAmountInput,
  formatPercentInput,
  isBlockedNumberKey,
  parseNumberInput,
  parsePercentInput,
} from '@/components/form-fields/input-filters';

/** Types `keys` one by one into a field guarded by `accept`, as a person would. */
function type(accept: (next: string) => string | null, keys: string, start = ''): string {
  let text = start;
  for (const key of keys) text = accept(text + key) ?? text;
  return text;
}

describe('amount field (quota fissa): digits, an optional comma, up to two decimals', () => {
  it('lets an operator type an Italian amount', () => {
    expect(type(acceptAmountInput, '12,50')).toBe('12,50');
    expect(type(acceptAmountInput, '1500')).toBe('1500');
  });

  it('ignores a third decimal: "12,505" cannot be typed', () => {
    expect(type(acceptAmountInput, '12,505')).toBe('12,50');
  });

  it('ignores letters, signs, dots, spaces and a second comma', () => {
    expect(type(acceptAmountInput, '1a2-3.4 5,6,7')).toBe('12345,67');
    expect(acceptAmountInput('-1')).toBeNull();
    expect(acceptAmountInput('1.000')).toBeNull();
  });

  it('accepts an emptied field and a trailing comma while typing', () => {
    expect(acceptAmountInput('')).toBe('');
    expect(acceptAmountInput('12,')).toBe('12,');
  });

  it('rejects a pasted amount with three decimals as a whole', () => {
    expect(acceptAmountInput('99,999')).toBeNull();
  });
});

describe('percent field: only values from 0 to 100', () => {
  it('accepts 0, 50, 100 and two decimals', () => {
    expect(type(acceptPercentInput, '0')).toBe('0');
    expect(type(acceptPercentInput, '50')).toBe('50');
    expect(type(acceptPercentInput, '100')).toBe('100');
    expect(type(acceptPercentInput, '12,75')).toBe('12,75');
  });

  it('ignores the keystroke that would go above 100', () => {
    expect(type(acceptPercentInput, '1000')).toBe('100');
    expect(type(acceptPercentInput, '101')).toBe('10');
    expect(type(acceptPercentInput, '100,5')).toBe('100,');
    expect(acceptPercentInput('100,01')).toBeNull();
  });

  it('ignores letters, minus signs and a third decimal', () => {
    expect(type(acceptPercentInput, '-5x')).toBe('5');
    expect(type(acceptPercentInput, '33,333')).toBe('33,33');
  });

  it('takes a dot as the decimal comma', () => {
    expect(acceptPercentInput('12.5')).toBe('12,5');
  });

  it('accepts an emptied field (no percentage)', () => {
    expect(acceptPercentInput('')).toBe('');
  });

  it('parses to a number, null when empty', () => {
    expect(parsePercentInput('')).toBeNull();
    expect(parsePercentInput('12,5')).toBe(12.5);
    expect(parsePercentInput('12,')).toBe(12);
    expect(parsePercentInput(',')).toBeNaN();
  });
});

describe('number inputs with minimum 0', () => {
  it('ignore the minus sign, the plus sign and the exponent', () => {
    expect(isBlockedNumberKey('-')).toBe(true);
    expect(isBlockedNumberKey('e')).toBe(true);
    expect(isBlockedNumberKey('E')).toBe(true);
    expect(isBlockedNumberKey('+')).toBe(true);
    expect(isBlockedNumberKey('5')).toBe(false);
    expect(isBlockedNumberKey(',')).toBe(false);
    expect(isBlockedNumberKey('Backspace')).toBe(false);
  });

  it('let the minus sign through when negatives are allowed', () => {
    expect(isBlockedNumberKey('-', true)).toBe(false);
  });

  it('turn an empty field into undefined and text into a number', () => {
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput('  ')).toBeUndefined();
    expect(parseNumberInput('1234.5')).toBe(1234.5);
  });
});

describe('showing saved values in the fields', () => {
  it('writes amounts the Italian way, with no thousands dots', () => {
    expect(formatAmountInput(12)).toBe('12');
    expect(formatAmountInput(12.5)).toBe('12,50');
    expect(formatAmountInput(1234.56)).toBe('1234,56');
    expect(formatAmountInput(null)).toBe('');
  });

  it('writes a percentage with a comma, empty when the band has none', () => {
    expect(formatPercentInput(50)).toBe('50');
    expect(formatPercentInput(12.5)).toBe('12,5');
    expect(formatPercentInput(null)).toBe('');
  });

  it('round-trips through the filters', () => {
    expect(acceptAmountInput(formatAmountInput(1234.56))).toBe('1234,56');
    expect(acceptPercentInput(formatPercentInput(99.99))).toBe('99,99');
  });
});
