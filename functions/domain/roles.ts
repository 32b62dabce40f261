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
  text(value)?.replace(/^TINIT-/i, '').toUpperCase() ?? null;

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
  };
}
