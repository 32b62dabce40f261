import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { inpsBenefitCodes } from '../../functions/domain/inps-benefits.ts';
import { INPS_BENEFIT_CODE } from '../../functions/domain/inps.ts';

/** The service form's list of INPS benefit codes is the XSD's PrestazioneDaErogareType, no more and no less. */
describe('INPS benefit codes', () => {
  it('are exactly the enumeration of the published XSD, and the regex the settings are checked with accepts each', () => {
    const xsd = readFileSync(
      new URL('../../functions/adapters/inps/ConsultazioneISEE_v2.8_PDND.xsd', import.meta.url),
      'utf8',
    );
    const type = xsd.slice(xsd.indexOf('<xs:simpleType name="PrestazioneDaErogareType">'));
    const published = [...type.slice(0, type.indexOf('</xs:simpleType>')).matchAll(/value="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(inpsBenefitCodes).toEqual(published);
    for (const code of published) expect(INPS_BENEFIT_CODE.test(code!)).toBe(true);
    expect(INPS_BENEFIT_CODE.test('A1.21')).toBe(false);
  });
});
