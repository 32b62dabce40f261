import { describe, expect, it } from 'vitest';
import { checkDigits, isValidIuv, isValidNav, navOfIuv } from '../../functions/domain/iuv.ts';
import { mypayIuv } from '../../lib/local/mypay-iuv.ts';

describe('IUV and notice number (NAV) with aux digit 3', () => {
  it('computes the check digits as ("3" + segregation + base) mod 93, zero-padded', () => {
    // 3010000000012345 = 93 × 32365591397982 + 19 (worked out by hand from reference.md's example)
    expect(93n * 32365591397982n + 19n).toBe(3010000000012345n);
    expect(checkDigits('3010000000012345')).toBe('19');
    // a value whose remainder is a single digit is zero-padded
    const small = [...Array(200).keys()]
      .map((n) => `300${String(n).padStart(13, '0')}`)
      .find((s) => BigInt(s) % 93n < 10n)!;
    expect(checkDigits(small)).toMatch(/^0[0-9]$/);
  });

  it("accepts reference.md's example and refuses a changed digit", () => {
    expect(isValidIuv('01000000001234519')).toBe(true);
    expect(isValidNav(navOfIuv('01000000001234519'))).toBe(true);
    expect(isValidIuv('01000000001234518')).toBe(false);
    expect(isValidIuv('0100000000123451')).toBe(false);
  });

  it('validates the shape of a NAV: ^[0123][0-9]{17}$', () => {
    expect(isValidNav('301000000001234519')).toBe(true);
    expect(isValidNav('301000000001234518')).toBe(false); // wrong check digits
    expect(isValidNav('401000000001234519')).toBe(false); // aux digit 4 does not exist
    expect(isValidNav('30100000000123451')).toBe(false); // 17 digits
    expect(isValidNav('3010000000012345190')).toBe(false); // 19 digits
    expect(isValidNav('30100000000123451A')).toBe(false);
    expect(isValidNav('100000000000000001')).toBe(true); // aux 1: no check digits
  });
});

describe("the MyPay simulator's IUVs (MyPay4's generator IUV17, written apart from the portal's checks)", () => {
  it("gives reference.md's example: segregation 01, progressive 12345", () => {
    expect(mypayIuv('01', 12345)).toBe('01000000001234519');
  });

  it("are IUVs the portal accepts, and a changed digit is refused by the portal's checks", () => {
    for (const n of [1, 42, 12345, 99_999_999_999]) {
      const iuv = mypayIuv('07', n);
      expect(iuv).toMatch(/^0700[0-9]{13}$/);
      expect(isValidIuv(iuv)).toBe(true);
      expect(isValidNav(navOfIuv(iuv))).toBe(true);
      const changed = iuv.slice(0, 5) + ((Number(iuv[5]) + 1) % 10) + iuv.slice(6);
      expect(isValidIuv(changed)).toBe(false);
      expect(isValidNav(navOfIuv(changed))).toBe(false);
    }
  });

  it('refuses malformed parts', () => {
    expect(() => mypayIuv('1', 1)).toThrow(RangeError);
    expect(() => mypayIuv('01', 0)).toThrow(RangeError);
    expect(() => mypayIuv('01', 100_000_000_000)).toThrow(RangeError);
  });
});
