import { describe, expect, it } from 'vitest';
import { assertUserDeletable, hasLinkedData, statusToggle, userStateAfterIsee, userStateAfterToggle } from '../../functions/domain/users.ts';

describe('the user’s state', () => {
  it('follows the newest ISEE: LOADED while it waits, VALIDATED otherwise', () => {
    expect(userStateAfterIsee('VALIDATED', { state: 'LOADED' })).toBe('LOADED');
    expect(userStateAfterIsee('LOADED', { state: 'VALIDATED' })).toBe('VALIDATED');
    expect(userStateAfterIsee('LOADED', { state: 'REFUSED' })).toBe('VALIDATED');
    expect(userStateAfterIsee('LOADED', null)).toBe('VALIDATED');
  });

  it('keeps a suspended user suspended whatever the ISEE does', () => {
    for (const newest of [null, { state: 'LOADED' }, { state: 'VALIDATED' }]) expect(userStateAfterIsee('SUSPEND', newest)).toBe('SUSPEND');
  });

  it("'SOSPENDI' suspends; 'ABILITA' re-enables, LOADED again while the newest ISEE waits", () => {
    expect(userStateAfterToggle(true, { state: 'LOADED' })).toBe('SUSPEND');
    expect(userStateAfterToggle(false, { state: 'LOADED' })).toBe('LOADED');
    expect(userStateAfterToggle(false, { state: 'VALIDATED' })).toBe('VALIDATED');
    expect(userStateAfterToggle(false, null)).toBe('VALIDATED');
  });

  it('labels the toggle as the spec writes it', () => {
    expect(statusToggle('SUSPEND')).toMatchObject({ label: 'ABILITA', suspend: false });
    expect(statusToggle('VALIDATED').message).toBe("Confermi di voler cambiare lo stato dell'utente in SOSPESO?");
    expect(statusToggle('LOADED').message).toBe("Confermi di voler cambiare lo stato dell'utente in ATTIVO?");
  });
});

describe('deleting a user', () => {
  it('is allowed only without linked data', () => {
    expect(() => assertUserDeletable({ iseeCount: 0, lastIsee: null, hasIsee: false, hasSubscriptions: false })).not.toThrow();
    const linked = [{ iseeCount: 2 }, { lastIsee: { id: 'i', valueCents: 1, year: 2026, state: 'REFUSED', hasFile: false } }, { hasIsee: true }, { hasSubscriptions: true }];
    for (const facts of linked) {
      expect(hasLinkedData(facts)).toBe(true);
      expect(() => assertUserDeletable(facts)).toThrow(expect.objectContaining({ status: 409, message: 'Non è possibile cancellare un utente se ha dati collegati!' }));
    }
  });
});
