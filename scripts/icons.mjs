// `npm run icons`: writes the server's icon (src/mcp/icons.ts) to assets/icon.svg and renders assets/icon.png
// (512 x 512) for the MCP Bundle, whose hosts want a PNG file. Needs rsvg-convert (Debian: librsvg2-bin).
// test/docs checks that assets/icon.svg is what the source draws; the PNG is checked in.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { withBundled } from './lib/import-bundled.mjs';

await withBundled('src/mcp/icons.ts', async ({ SERVER_ICON_SVG }) => {
  await writeFile('assets/icon.svg', `${SERVER_ICON_SVG}\n`);
  execFileSync('rsvg-convert', ['--width', '512', '--height', '512', 'assets/icon.svg', '--output', 'assets/icon.png']);
});
