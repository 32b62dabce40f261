import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, PROVINCE_CODES } from '../../functions/domain/place-codes.ts';
import { countryOptions, provinceOptions } from '../../functions/domain/place-options.ts';

describe('the province and country codes the API accepts', () => {
  it('are exactly the codes of the lists the forms offer', () => {
    expect([...PROVINCE_CODES].sort()).toEqual(provinceOptions.map((p) => p.code).sort());
    expect([...COUNTRY_CODES].sort()).toEqual(countryOptions.map((c) => c.code).sort());
  });
});
