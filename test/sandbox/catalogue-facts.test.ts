/**
 * The sandbox takes the spec's facts from the catalogue (src/sandbox/validate.ts says which): its routes are the
 * catalogue's operations, and its source restates none of the spec's tables. Request validation is the exception and
 * is not checked here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { STREAMING_REGIONS } from '../../src/catalogue/fields.js';
import { allRoutes } from '../../src/sandbox/routes.js';

/** Every route of the sandbox as METHOD path auth, e.g. "DELETE /api/v1/services/:serviceId gateway-signature". */
const routes = allRoutes().map((r) => `${r.method} ${r.pattern} ${r.auth}`);

describe('sandbox routes', () => {
  it("are the catalogue's fifteen operations, method, path and auth, E1/E2 once per Region", () => {
    const expected = CATALOGUE.flatMap((op) => {
      const path = op.path.replace(/\{(\w+)\}/g, (whole, name: string) =>
        name === 'region' && op.streamingRegion ? whole : `:${name}`,
      );
      const paths = op.streamingRegion
        ? Object.values(STREAMING_REGIONS).map((segment) => path.replace('{region}', segment))
        : [path];
      return paths.map((p) => `${op.method} ${p} ${op.auth}`);
    });
    expect(routes.sort()).toEqual(expected.sort());
    expect(routes).toHaveLength(19);
  });
});

/** Source text of every sandbox module, comments removed (a comment may name a value without restating a table). */
function sandboxSources(dir = 'src/sandbox'): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sandboxSources(path);
    if (!entry.name.endsWith('.ts')) return [];
    const code = readFileSync(path, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    return [[path, code]];
  });
}

describe('sandbox source', () => {
  // What each table looked like when the sandbox restated it.
  it.each([
    ['Region segments', /'(sgn|jpn)-v1'/],
    ['route paths', /pattern: ['`]\//],
    ['method names', /'ANY', 'GET'/],
    ['job states', /'RUNNABLE' \|/],
    ['UTM-K parameters', /x_0=2000000/],
    ['maps status codes', /code: (0|3|100|900), name:/],
    ['AI-filter scores', /'0' \| '1' \| '2'/],
    ['model name', /'LK-D2'/],
    ['dataset types', /'user', 'item', 'interaction'/],
    ['KMS Regions', /'KR' \| 'JPN'|\['KR', 'JPN'\]/],
    ['gateway error codes', /gatewayError\(\d+, '\d+'|\[\s*'\d{3}', '/],
    ['scanner state', /'SCANNER_STARTING'/],
  ])('restates no %s', (_, restated) => {
    const found = sandboxSources()
      .filter(([, code]) => restated.test(code))
      .map(([path]) => path);
    expect(found).toEqual([]);
  });
});
