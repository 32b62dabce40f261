export const roles = ['OPERATOR', 'DELEGATE', 'CITIZEN'] as const;
export type Role = (typeof roles)[number];

/** Who is calling, as derived from the verified token's claims. */
export interface Actor {
  sub: string;
  role: Role;
  fiscalCode: string | null;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string | null;
  workingEntityId: string | null;
  /** The level of assurance of the sign-in (SPID_L1…L3, CIE_L3) when the identity gateway gives it. */
  loa?: string | null;
}

export type Claims = Record<string, unknown>;

/**
 * API Gateway's JWT authorizer hands array claims to the Lambda as a string like "[OPERATOR DELEGATE]";
 * the local server does the same, so this is the one place that reads them.
 */
export function claimList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value.trim() === '') return [];
  return value
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** SPID gives the fiscal code as TINIT-<code>. */
export const normaliseFiscalCode = (value: unknown): string | null =>
  text(value)
    ?.replace(/^TINIT-/i, '')
    .toUpperCase() ?? null;

/**
 * The spec's rule: the delegate role overrides the operator role; a profile with a working entity
 * makes an operator; everyone else who signed in is a citizen.
 */
export function deriveRole(claims: Claims): Role {
  const granted = new Set(
    [...claimList(claims.role), ...claimList(claims.roles), ...claimList(claims['cognito:groups'])].map((r) =>
      r.toUpperCase(),
    ),
  );
  if (granted.has('DELEGATE')) return 'DELEGATE';
  if (granted.has('OPERATOR') || workingEntityOf(claims)) return 'OPERATOR';
  return 'CITIZEN';
}

const workingEntityOf = (claims: Claims) => text(claims.working_entity_id ?? claims['custom:working_entity']);

/**
 * The sign-in's level of assurance: the `loa` claim (the gateway's, copied by the pre-token trigger), or an
 * `acr` as SPID/CIE give it (https://www.spid.gov.it/SpidL2, …/SpidL3 for CIE too, which is level 3).
 */
export function loaOf(claims: Claims): string | null {
  const given = text(claims.loa ?? claims['custom:loa']);
  if (given && /^(SPID_L[123]|CIE_L[123])$/.test(given.toUpperCase())) return given.toUpperCase();
  const acr = text(claims.acr) ?? given;
  const level = acr ? (/Spid\s*L?([123])$/i.exec(acr)?.[1] ?? /^L([123])$/i.exec(acr)?.[1]) : undefined;
  if (!level) return null;
  return /cie/i.test(String(claims.amr ?? claims.idp ?? '')) ? `CIE_L${level}` : `SPID_L${level}`;
}

export function actorFromClaims(claims: Claims): Actor {
  const firstName = text(claims.given_name) ?? '';
  const lastName = text(claims.family_name) ?? '';
  return {
    sub: String(claims.sub),
    role: deriveRole(claims),
    fiscalCode: normaliseFiscalCode(claims.fiscal_code ?? claims['custom:fiscal_code']),
    firstName,
    lastName,
    fullName: text(claims.name) ?? `${firstName} ${lastName}`.trim(),
    email: text(claims.email),
    workingEntityId: workingEntityOf(claims),
    loa: loaOf(claims),
  };
}
