import { describe, expect, it } from 'vitest';
import { Router } from '../../src/sandbox/router.js';
import type { Route } from '../../src/sandbox/types.js';

const route = (method: Route['method'], pattern: string): Route => ({
  method,
  pattern,
  auth: 'gateway-signature',
  handle: () => ({ status: 200 }),
});

describe('sandbox router', () => {
  const router = new Router([route('GET', '/a/:id/b'), route('DELETE', '/a/:id/b'), route('GET', '/a/list')]);

  it('matches method and pattern and decodes parameters', () => {
    const m = router.match('GET', '/a/x%20y%3F/b');
    expect(m).toMatchObject({ kind: 'route', params: { id: 'x y?' } });
  });

  it('tells an unknown path from a wrong method', () => {
    expect(router.match('GET', '/a/x')).toEqual({ kind: 'not-found' });
    expect(router.match('PUT', '/a/x/b')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE'] });
  });

  it('refuses parameters that are empty, dot segments or contain a slash', () => {
    for (const raw of ['', '.', '..', '%2e', '%2E%2E', 'a%2Fb']) {
      expect(router.match('GET', `/a/${raw}/b`), raw).toEqual({ kind: 'not-found' });
    }
  });

  it('refuses overlapping patterns so that registration order never decides', () => {
    expect(() => new Router([route('GET', '/a/:id'), route('GET', '/a/list')])).toThrow(/overlap/);
    expect(() => new Router([route('GET', '/a/:id'), route('PUT', '/a/list')])).not.toThrow();
  });
});
