import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';

/**
 * User attributes the API reads from the access token (functions/domain/roles.ts), and the claim each
 * one becomes. Cognito puts only the groups in access tokens: the fiscal code, the working entity and
 * the names for the profile page are added here. The fiscal code is copied as SPID sends it
 * ('TINIT-<code>'); the API strips the prefix.
 */
export const accessTokenClaimOf = {
  'custom:fiscal_code': 'fiscal_code',
  'custom:working_entity': 'working_entity_id',
  given_name: 'given_name',
  family_name: 'family_name',
  email: 'email',
  // SPID/CIE level of the sign-in, mapped by the identity gateway: INPS's audit information carries it.
  'custom:loa': 'loa',
} as const;

/** The claims to add for these user attributes: only those present and not blank. */
export function accessTokenClaims(userAttributes: Record<string, string | undefined>): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [attribute, claim] of Object.entries(accessTokenClaimOf)) {
    const value = userAttributes[attribute]?.trim();
    if (value) claims[claim] = value;
  }
  return claims;
}

/** Cognito pre-token-generation trigger, event version V2 (needed to change access tokens). */
export const handler = async (event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> => {
  const overrides = event.response.claimsAndScopeOverrideDetails ?? {};
  event.response.claimsAndScopeOverrideDetails = {
    ...overrides,
    accessTokenGeneration: {
      ...overrides.accessTokenGeneration,
      claimsToAddOrOverride: {
        ...overrides.accessTokenGeneration?.claimsToAddOrOverride,
        ...accessTokenClaims(event.request.userAttributes),
      },
    },
  };
  return event;
};
