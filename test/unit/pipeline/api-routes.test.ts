// The API's routes as the error lines know them (pipeline/common/api-routes.ts), held to the routes
// the client calls: every fixed route is one, every route with an id names what the id is; and an
// address that ends in a route of the API is told, surely or only maybe.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import {
  FIXED_ROUTES,
  identifiedBy,
  isFixedRoute,
  routeAtEnd,
} from '../../../src/pipeline/common/api-routes.js';

const RESOURCES = new URL('../../../src/client/resources/', import.meta.url);

/** The routes in the client's resources: quoted ones as they are, templates with their ids as ID. */
async function clientRoutes(): Promise<{ fixed: string[]; withId: string[] }> {
  const fixed: string[] = [];
  const withId: string[] = [];
  for (const name of await readdir(RESOURCES)) {
    const text = await readFile(new URL(name, RESOURCES), 'utf8');
    const constants = new Map(
      [...text.matchAll(/const ([A-Z_]+) = '(\/[^']*)'/g)].map((m) => [m[1], m[2]]),
    );
    for (const m of text.matchAll(/'(\/(?:tenants|scans)[^']*)'/g)) fixed.push(m[1] ?? '');
    for (const m of text.matchAll(/`([^`]*\$\{segment\([^`]*)`/g)) {
      const route = (m[1] ?? '')
        .replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => constants.get(name) ?? name)
        .replace(/\$\{segment\([^)]*\)\}/g, 'ID');
      withId.push(route);
    }
  }
  return { fixed, withId };
}

describe('the API routes the error lines know', () => {
  it("are the client's: its fixed routes, and its routes with an id, each naming a thing", async () => {
    const { fixed, withId } = await clientRoutes();
    assert.ok(fixed.length >= 18 && withId.length >= 12, `${fixed.length}, ${withId.length}`);
    for (const route of fixed) assert.ok(isFixedRoute(route), `${route} is not listed`);
    assert.deepEqual([...new Set(fixed)].sort(), [...FIXED_ROUTES].sort(), 'none listed in vain');
    for (const route of withId) {
      assert.equal(identifiedBy(route)?.id, 'ID', route);
      assert.ok(!isFixedRoute(route), route);
    }
  });

  it('an id is any segment: a lowercase word as much as a UUID', () => {
    assert.deepEqual(identifiedBy('/tenants/me/api-keys/ci-key'), {
      thing: 'API key',
      id: 'ci-key',
    });
    assert.deepEqual(identifiedBy('/tenants/me/attack-surface/targets/www/verify'), {
      thing: 'attack-surface target',
      id: 'www',
    });
    assert.equal(identifiedBy('/tenants/me/api-keys'), undefined);
    assert.equal(identifiedBy('/tenants/me/api-keys/a/b'), undefined);
  });

  it('an address that ends in a route: surely (the API’s own), or maybe (/scans)', () => {
    assert.equal(routeAtEnd('/api/v1/tenants/me'), '/tenants/me');
    assert.equal(routeAtEnd('/api/v1/tenants/me/'), '/tenants/me');
    assert.equal(routeAtEnd('/v1/tenants/me/scans'), '/tenants/me/scans');
    assert.equal(routeAtEnd('/tenants/me'), '/tenants/me');
    assert.equal(routeAtEnd('/v1/scans/3e70/results'), '/scans/3e70/results');
    assert.equal(routeAtEnd('/v1/tenants/me/api-keys/k1'), '/tenants/me/api-keys/k1');
    assert.equal(routeAtEnd('/v1/scans/3e70/report/generate'), '/scans/3e70/report/generate');
    // Words a route has are not a route: a base path may hold them.
    for (const base of [
      ...['/api/v1', '/', '', '/v1/tenants/meow', '/v1/scans', '/scans/v1'],
      ...['/tenants/me/v1', '/tenants/me-api/v1', '/api/tenants/me/service/v2'],
    ]) {
      assert.equal(routeAtEnd(base), undefined, base);
    }
    assert.equal(routeAtEnd('/v1/scans', false), '/scans');
    assert.equal(routeAtEnd('/v1/scans/3e70', false), '/scans/3e70');
    assert.equal(routeAtEnd('/api/v1', false), undefined);
  });
});
