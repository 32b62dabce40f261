import { beforeAll, describe, expect, it } from 'vitest';
import { routes, routeKey } from '../../functions/routes.ts';
import { as, personas, request, tokenFor, type Persona } from '../support/api.ts';

/**
 * Who may call what, written out by hand from the spec (part 2 §2.1 and §6) — not derived from the
 * route table, so a wrong `access` in the table makes this test fail.
 * A = anonymous, C = citizen, N = citizen at first sign-in, O = operator, D = delegate, E = operator by working entity.
 */
type Row = Record<Persona, number>;
const everyone = (status: number): Row => ({ anonymous: status, citizen: status, newCitizen: status, operator: status, delegate: status, entityOperator: status });
const operatorsOnly = (ok: number): Row => ({ anonymous: 401, citizen: 403, newCitizen: 403, operator: ok, delegate: 403, entityOperator: ok });

const expected: Record<string, Row> = {
  'GET /api/bands': everyone(200),
  'GET /api/bands/{id}': operatorsOnly(200),
  'POST /api/bands': operatorsOnly(201),
  'PUT /api/bands/{id}': operatorsOnly(200),
  'DELETE /api/bands/{id}': operatorsOnly(204),
  'GET /api/services': everyone(200),
  'GET /api/services/{id}': everyone(200),
  'POST /api/services': operatorsOnly(201),
  'PUT /api/services/{id}': operatorsOnly(200),
  'DELETE /api/services/{id}': operatorsOnly(204),
  'GET /api/me': { ...everyone(200), anonymous: 401 },
  'POST /api/uploads': { anonymous: 401, citizen: 201, newCitizen: 201, operator: 201, delegate: 403, entityOperator: 201 },
  'GET /api/openapi.json': everyone(200),
};

const validBody: Record<string, unknown> = {
  bands: { name: 'Fascia matrice', min: 0, max: 100, percent: 50, fixedCost: 10 },
  uploads: { purpose: 'subscription-file', fileName: 'documento.pdf', contentType: 'application/pdf', size: 1024 },
  services: { code: 'MATRICE', name: 'Servizio matrice', description: 'Servizio creato dal test dei permessi.' },
};

describe('every route × every role', () => {
  const tokens = {} as Record<Persona, string | undefined>;
  beforeAll(async () => {
    for (const persona of personas) tokens[persona] = await tokenFor(persona);
  });

  it('has an expectation for every route of the route table', () => {
    expect(Object.keys(expected).sort()).toEqual(routes.map(routeKey).sort());
  });

  for (const route of routes) {
    for (const persona of personas) {
      const want = expected[routeKey(route)]?.[persona];
      it(`${routeKey(route)} as ${persona} → ${want}`, async () => {
        const operator = await as('operator');
        // Each call that may change or read a record gets a record of its own, made by the operator.
        let path: string = route.path;
        if (path.includes('{id}')) {
          const created = await operator.post(`/api/${route.resource}`, validBody[route.resource]);
          expect(created.status).toBe(201);
          path = path.replace('{id}', created.json.id);
        }
        const body = route.method === 'POST' || route.method === 'PUT' ? validBody[route.resource] : undefined;
        const response = await request(route.method, path, { token: tokens[persona], body });
        expect(response.status).toBe(want);
        if (response.status >= 400) expect(response.json.detail).toMatch(/[a-zà-ù]/i);
      });
    }
  }

  it('tells each person the role the spec gives them', async () => {
    const roles: Record<string, string> = {};
    for (const persona of personas.filter((p) => p !== 'anonymous')) roles[persona] = (await (await as(persona)).get('/api/me')).json.role;
    expect(roles).toEqual({ citizen: 'CITIZEN', newCitizen: 'CITIZEN', operator: 'OPERATOR', delegate: 'DELEGATE', entityOperator: 'OPERATOR' });
  });
});
