import { describe, expect, it } from 'vitest';
import {
  assertUserDeletable,
  hasLinkedData,
  interleaveNames,
  normaliseSearchText,
  statusToggle,
  userStateAfterIsee,
  userStateAfterToggle,
} from '../../functions/domain/users.ts';

describe('the user’s state', () => {
  it('follows the newest ISEE: LOADED while it waits, VALIDATED otherwise', () => {
    expect(userStateAfterIsee('VALIDATED', { state: 'LOADED' })).toBe('LOADED');
    expect(userStateAfterIsee('LOADED', { state: 'VALIDATED' })).toBe('VALIDATED');
    expect(userStateAfterIsee('LOADED', { state: 'REFUSED' })).toBe('VALIDATED');
    expect(userStateAfterIsee('LOADED', null)).toBe('VALIDATED');
  });

  it('keeps a suspended user suspended whatever the ISEE does', () => {
    for (const newest of [null, { state: 'LOADED' }, { state: 'VALIDATED' }])
      expect(userStateAfterIsee('SUSPEND', newest)).toBe('SUSPEND');
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
    expect(() =>
      assertUserDeletable({ iseeCount: 0, lastIsee: null, hasIsee: false, hasSubscriptions: false }),
    ).not.toThrow();
    const linked = [
      { iseeCount: 2 },
      { lastIsee: { id: 'i', valueCents: 1, year: 2026, state: 'REFUSED', hasFile: false } },
      { hasIsee: true },
      { hasSubscriptions: true },
    ];
    for (const facts of linked) {
      expect(hasLinkedData(facts)).toBe(true);
      expect(() => assertUserDeletable(facts)).toThrow(
        expect.objectContaining({ status: 409, message: 'Non è possibile cancellare un utente se ha dati collegati!' }),
      );
    }
  });
});

describe('the key of the search by last and first name together', () => {
  it('interleaves the two names letter by letter, past the shorter one with _', () => {
    expect(interleaveNames('rossi', 'maria')).toBe('rmoasrsiia');
    expect(interleaveNames('li', 'anna')).toBe('lain_n_a');
  });

  it('a begins_with on the interleaved prefixes finds exactly the users whose names start with both prefixes', () => {
    const people = [
      ['Rossi', 'Maria'],
      ['Rossi', 'Marco'],
      ['Rossini', 'Mario'],
      ['Russo', 'Maria'],
      ['Li', 'Anna'],
      ['Lionetti', 'Andrea'],
      ['De Luca', 'Ma'],
      ['D’Angelo', 'Àngela'],
      ['Ro', 'Marianna'],
      ['Ross', 'M'],
    ].map(([last, first]) => ({ last: normaliseSearchText(last), first: normaliseSearchText(first) }));
    const prefixes = [
      'r',
      'ro',
      'ross',
      'rossi',
      'rossin',
      'li',
      'l',
      'de',
      'dangelo',
      'm',
      'ma',
      'mar',
      'maria',
      'a',
      'an',
      'angela',
      'zz',
    ];
    for (const lastPrefix of prefixes) {
      for (const firstPrefix of prefixes) {
        const shared = Math.min(lastPrefix.length, firstPrefix.length);
        const keyPrefix = interleaveNames(lastPrefix.slice(0, shared), firstPrefix.slice(0, shared));
        // The repository: begins_with on the key, then the longer prefix's rest as a filter.
        const byKey = people.filter(
          (p) =>
            interleaveNames(p.last, p.first).startsWith(keyPrefix) &&
            p.last.startsWith(lastPrefix) &&
            p.first.startsWith(firstPrefix),
        );
        const keyOnly = people.filter((p) => interleaveNames(p.last, p.first).startsWith(keyPrefix));
        const expected = people.filter((p) => p.last.startsWith(lastPrefix) && p.first.startsWith(firstPrefix));
        expect(byKey, `${lastPrefix} + ${firstPrefix}`).toEqual(expected);
        // The key alone never loses a match (the filter only removes).
        for (const match of expected) expect(keyOnly).toContain(match);
      }
    }
  });
});
