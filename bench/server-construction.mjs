// Building one server per 2026-07-28 HTTP request: ours (the SDK's low-level Server, tools computed per client) against
// the SDK's McpServer with the same tools, in the same process, median of 5 rounds of 2,000 builds each.
// `node bench/server-construction.mjs`; the figure is quoted where src/mcp/tool-registry.ts says why it stays
// low-level.
import { withBundled } from '../scripts/lib/import-bundled.mjs';
import { ROOT, isMain } from './lib/results.mjs';

export async function run() {
  const json = await withBundled(`${ROOT}bench/fixtures/server-construction.ts`, (fixture) => fixture.run());
  const markdown = [
    '### Building one server (each 2026-07-28 HTTP request builds one)',
    '',
    `Ours, on the low-level \`Server\`: ${json.oursMicros} µs; \`McpServer\` with the same sixteen tools registered: ${json.mcpServerMicros} µs (median of 5 × 2,000 builds).`,
  ].join('\n');
  return { name: 'server-construction', json, markdown };
}

if (isMain(import.meta.url)) console.log((await run()).markdown);
