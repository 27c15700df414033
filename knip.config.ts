// The dead-code check of `npm run lint` (knip): unused files, exports, types and dependencies. The entries are what
// runs a module that nothing imports: the command and the server the build bundles (scripts/build.mjs), the app
// view's browser script, what scripts and benchmarks bundle by path (scripts/lib/import-bundled.mjs), the scripts,
// benchmarks and tests themselves (vitest and eslint are found through their configs).
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    'src/cli.ts',
    'src/main.ts',
    'src/mcp/app-views/reverse-geocode/view.ts',
    'src/mcp/icons.ts', // npm run icons
    'scripts/*.mjs',
    'scripts/generated/index.ts', // npm run generate
    'scripts/lib/app-view-host.ts', // scripts/lib/app-view-preview.mjs
    'bench/*.mjs',
    'bench/fixtures/*.{ts,mjs}',
    'test/**/*.test.ts',
    'test/helpers/heap-probe.mjs', // a child process of test/helpers/heap-probe.ts
  ],
  project: ['src/**/*.ts', 'scripts/**/*.{mjs,ts}', 'bench/**/*.{mjs,ts}', 'test/**/*.{ts,mjs}', '*.{js,ts}'],
  // scripts/conformance.mjs runs the suite's file from node_modules; the tests and `npm run icons` run these tools.
  ignoreDependencies: ['@modelcontextprotocol/conformance'],
  ignoreBinaries: ['openssl', 'rsvg-convert'],
};

export default config;
