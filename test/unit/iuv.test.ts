import { describe, expect, it } from 'vitest';
import { checkDigits, isValidIuv, isValidNav, iuvBase, makeIuv, navOfIuv } from '../../functions/domain/iuv.ts';

describe('IUV and notice number (NAV) with aux digit 3', () => {
  it("gives reference.md's example: segregation 01, base 0000000012345", () => {
    expect(makeIuv({ segregationCode: '01', base: '0000000012345' })).toEqual({ iuv: '01000000001234519', nav: '301000000001234519' });
  });

  it('computes the check digits as ("3" + segregation + base) mod 93, zero-padded', () => {
    // 3010000000012345 = 93 × 32365591397982 + 19 (worked out by hand from reference.md's example)
    expect(93n * 32365591397982n + 19n).toBe(3010000000012345n);
    expect(checkDigits('3010000000012345')).toBe('19');
    // a value whose remainder is a single digit is zero-padded
    const small = [...Array(200).keys()].map((n) => `3${'0'.repeat(2)}${iuvBase(n)}`).find((s) => BigInt(s) % 93n < 10n)!;
    expect(checkDigits(small)).toMatch(/^0[0-9]$/);
  });

  it('builds IUVs that validate, and refuses a changed digit', () => {
    for (const n of [0, 1, 42, 12345, 9999999999999]) {
      const { iuv, nav } = makeIuv({ segregationCode: '07', base: iuvBase(n) });
      expect(iuv).toHaveLength(17);
      expect(nav).toBe(navOfIuv(iuv));
      expect(isValidIuv(iuv)).toBe(true);
      expect(isValidNav(nav)).toBe(true);
      const changed = iuv.slice(0, 5) + ((Number(iuv[5]) + 1) % 10) + iuv.slice(6);
      expect(isValidIuv(changed)).toBe(false);
      expect(isValidNav(navOfIuv(changed))).toBe(false);
    }
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

  it('refuses malformed parts', () => {
    expect(() => makeIuv({ segregationCode: '1', base: '0000000012345' })).toThrow(RangeError);
    expect(() => makeIuv({ segregationCode: '01', base: '12345' })).toThrow(RangeError);
    expect(() => iuvBase(-1)).toThrow(RangeError);
    expect(() => iuvBase(10_000_000_000_000)).toThrow(RangeError);
  });
});
