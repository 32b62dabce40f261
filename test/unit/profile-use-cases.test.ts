import { beforeEach, describe, expect, it } from 'vitest';
import { actors, portal, type Portal } from '../support/in-memory.ts';

let app: Portal;
beforeEach(() => {
  app = portal();
});

const profile = {
  email: 'giuseppe.verdi@example.it',
  birthDate: '1990-09-07',
  address: 'Via Po',
  addressNumber: '1',
  cap: '80121',
  city: 'Napoli',
  country: 'NA',
  nation: 'IT',
  emailPec: null,
  phoneNumber: null,
  municipioId: null,
};

describe('whoever signs in', () => {
  it('a citizen at the first sign-in gets a record, and is asked to complete the profile until it is', async () => {
    const me = await app.profile.getMe(actors.otherCitizen);
    expect(me).toMatchObject({ role: 'CITIZEN', fiscalCode: 'VRDGPP90P07F839R', profileComplete: false });
    expect(me.missingFields).toEqual(['email', 'birthDate', 'address', 'addressNumber', 'cap', 'city', 'country']);
    const saved = await app.profile.updateProfile(profile, actors.otherCitizen);
    expect(saved).toMatchObject({
      id: me.userId,
      firstName: 'Giuseppe',
      fiscalCode: 'VRDGPP90P07F839R',
      city: 'Napoli',
      profileComplete: true,
    });
    expect(await app.profile.getMe(actors.otherCitizen)).toMatchObject({
      userId: me.userId,
      profileComplete: true,
      missingFields: [],
    });
    expect(await app.profile.getProfile(actors.otherCitizen)).toEqual(saved);
  });

  it('an operator is not a citizen: no record, complete by definition', async () => {
    expect(await app.profile.getMe(actors.operator)).toMatchObject({
      role: 'OPERATOR',
      userId: null,
      profileComplete: true,
    });
    expect(app.store.users.all.size).toBe(0);
  });
});
