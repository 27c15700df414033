// `npm run icons`: writes the server's icon (src/mcp/icons.ts) to assets/icon.svg and renders assets/icon.png
// (512 x 512) for the MCP Bundle, whose hosts want a PNG file. Needs rsvg-convert (Debian: librsvg2-bin).
// test/docs checks that assets/icon.svg is what the source draws; the PNG is checked in.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = await mkdtemp(join(tmpdir(), 'svc-icons-'));
try {
  const outfile = join(dir, 'icons.mjs');
  await build({
    entryPoints: ['src/mcp/icons.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const { SERVER_ICON_SVG } = await import(outfile);
  await writeFile('assets/icon.svg', `${SERVER_ICON_SVG}\n`);
  execFileSync('rsvg-convert', ['--width', '512', '--height', '512', 'assets/icon.svg', '--output', 'assets/icon.png']);
} finally {
  await rm(dir, { recursive: true, force: true });
}
