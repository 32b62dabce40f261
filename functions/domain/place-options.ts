import countries from './data/countries.json' with { type: 'json' };
import provinces from './data/provinces.json' with { type: 'json' };

/**
 * The province and country pickers of the user forms (web only: the API checks the codes alone,
 * place-codes.ts, so its functions do not carry the names).
 */
/** Italian provinces, two-letter codes (data of codice-fiscale-js, see functions/domain/data). */
export const provinceOptions: readonly { code: string; name: string }[] = provinces;
/** Countries, ISO 3166-1 alpha-2 codes with Italian upper-case names (ICU's Italian names, see functions/domain/data). */
export const countryOptions: readonly { code: string; name: string }[] = countries;
