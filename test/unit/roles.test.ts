import { describe, expect, it } from 'vitest';
import { actorFromClaims, claimList, deriveRole } from '../../functions/domain/roles.ts';

describe('role from the sign-in token', () => {
  it('reads the role list as the JWT authorizer passes it: "[OPERATOR DELEGATE]"', () => {
    expect(claimList('[OPERATOR DELEGATE]')).toEqual(['OPERATOR', 'DELEGATE']);
    expect(claimList(['CITIZEN'])).toEqual(['CITIZEN']);
    expect(claimList(undefined)).toEqual([]);
  });

  it('lets the delegate role override the operator role', () => {
    expect(deriveRole({ role: '[OPERATOR DELEGATE]' })).toBe('DELEGATE');
    expect(deriveRole({ 'cognito:groups': ['DELEGATE', 'OPERATOR'] })).toBe('DELEGATE');
  });

  it('makes an operator of a profile with a working entity', () => {
    expect(deriveRole({ role: '[]', working_entity_id: 'ENTE-1' })).toBe('OPERATOR');
    expect(deriveRole({ 'custom:working_entity': 'ENTE-1' })).toBe('OPERATOR');
  });

  it('treats everyone else who signed in as a citizen', () => {
    expect(deriveRole({ role: '[CITIZEN]' })).toBe('CITIZEN');
    expect(deriveRole({})).toBe('CITIZEN');
  });

  it('strips the SPID prefix from the fiscal code and builds the full name', () => {
    const actor = actorFromClaims({
      sub: 'x',
      fiscal_code: 'TINIT-rssmra85c52h501n',
      given_name: 'Maria',
      family_name: 'Rossi',
    });
    expect(actor.fiscalCode).toBe('RSSMRA85C52H501N');
    expect(actor.fullName).toBe('Maria Rossi');
  });
});
