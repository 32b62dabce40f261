/**
 * The IUV MyPay4 gives a position it generates the IUV for (flagGeneraIuv): IuvService.generateIUVSmall,
 * the generator IUV17 (mypay4-be .../service/fesp/IuvService.java), with aux digit 3:
 *
 *   segregation code (2) + local information system IUV_SISTEMA_INFORMATIVO_ID "00" (2)
 *   + progressive of the entity, %011d (11) + check digits (2)
 *   check digits = (aux digit + the 15 digits before them) mod 93, zero-padded to 2
 *
 * Written here from MyPay's code, not taken from the portal's domain (functions/domain/iuv.ts), so that the
 * simulator checks the portal's handling of IUVs instead of agreeing with it by construction.
 */
const AUX_DIGIT = '3';
const IUV_SISTEMA_INFORMATIVO_ID = '00';

export function mypayIuv(segregationCode: string, progressive: number): string {
  if (!/^[0-9]{2}$/.test(segregationCode))
    throw new RangeError(`Segregation code must be 2 digits, got "${segregationCode}"`);
  if (!Number.isSafeInteger(progressive) || progressive < 1 || progressive > 99_999_999_999)
    throw new RangeError(`Progressive out of range: ${progressive}`);
  const reference = segregationCode + IUV_SISTEMA_INFORMATIVO_ID + String(progressive).padStart(11, '0');
  // 16 digits: a Java long in MyPay, past Number's exact range here.
  const remainder = BigInt(AUX_DIGIT + reference) % 93n;
  return reference + String(remainder).padStart(2, '0');
}
