/**
 * docs/development.md's Layout owns the layers of src/ and the folders with a face; this test reads both from there
 * and holds every import of src/ to them: no import runs up a layer, no face is bypassed, and the layout table names
 * only paths that exist and every folder and file at the top of src/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DOC = 'docs/development.md';

const doc = readFileSync(DOC, 'utf8');
const layoutSection = section(doc, '## Layout');

/** The text of a `## ` section, up to the next. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${DOC} has no "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start < 0 || end < 0) throw new Error(`${DOC}'s Layout has no ${open} ... ${close}`);
  return text.slice(start + open.length, end);
}

/** Paths in backticks at the start of a line of the list, before its words (`src/x/`, `src/y.ts`). */
const pathsOf = (text: string) => [...text.matchAll(/`(src\/[^`]*)`/g)].map((m) => m[1]!);

/** The layers, top first: each line of the ordered list names its folders (ending in /) and files. */
const LAYERS: readonly (readonly string[])[] = between(layoutSection, '<!-- layers:start -->', '<!-- layers:end -->')
  .split('\n')
  .filter((line) => /^\d+\. /.test(line))
  .map((line) => pathsOf(line.replace(/\(.*?\)/g, '')));

const FACES: readonly string[] = pathsOf(between(layoutSection, '<!-- faces -->', '<!-- /faces -->'));

/** The layer of a file of src/: its line, or the line of the deepest folder that holds it (0 is the top). */
function layerOf(file: string): number | undefined {
  let best: { layer: number; length: number } | undefined;
  LAYERS.forEach((paths, layer) => {
    for (const path of paths) {
      const holds = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (holds && (!best || path.length > best.length)) best = { layer, length: path.length };
    }
  });
  return best?.layer;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const SOURCES = filesUnder('src').filter((file) => file.endsWith('.ts'));

/**
 * The files of src/ a file names by a relative specifier: `import … from`, `import '…'`, `import()`, `export … from`,
 * as TypeScript's own scanner reads them (an example in a comment or a string is not an import).
 */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map((specifier) => relative('.', normalize(join(dirname(file), specifier))).replace(/\.js$/, '.ts'));
}

interface Finding {
  rule: 'up a layer' | 'face bypassed' | 'no such file';
  edge: string;
}

/** What breaks the rules in `files` (path and text). */
function findings(files: readonly { file: string; text?: string }[]): Finding[] {
  const found: Finding[] = [];
  for (const { file, text } of files) {
    const from = layerOf(file)!;
    for (const target of importsOf(file, text)) {
      const edge = `${file} -> ${target}`;
      if (!existsSync(target)) {
        found.push({ rule: 'no such file', edge });
        continue;
      }
      const to = layerOf(target);
      if (to !== undefined && to < from) found.push({ rule: 'up a layer', edge });
      const face = FACES.find((folder) => target.startsWith(folder) && !file.startsWith(folder));
      if (face && target !== `${face}index.ts`) found.push({ rule: 'face bypassed', edge });
    }
  }
  return found;
}

describe(`the layers of src/ (${DOC}, Layout)`, () => {
  it('the document lists layers and faces, each path once, each of them there', () => {
    expect(LAYERS.length).toBeGreaterThan(5);
    const named = LAYERS.flat();
    expect(new Set(named).size, 'a path named on two lines').toBe(named.length);
    for (const path of [...named, ...FACES]) expect(existsSync(path), `${path} does not exist`).toBe(true);
    for (const face of FACES) {
      expect(face.endsWith('/'), `${face}: a face is a folder`).toBe(true);
      expect(existsSync(`${face}index.ts`), `${face} has no index.ts`).toBe(true);
    }
  });

  it('every file of src/ is of a layer', () => {
    expect(SOURCES.filter((file) => layerOf(file) === undefined)).toEqual([]);
  });

  it('no file imports a file of a layer above its own, and none enters a face but by its index.ts', () => {
    const found = findings(SOURCES.map((file) => ({ file })));
    expect(found.map(({ rule, edge }) => `${rule}: ${edge}`)).toEqual([]);
  });

  it('the check finds an import up a layer, a face bypassed, and a path that is not there', () => {
    // Files as they would be with one import more: what the test above would report for them.
    const planted = [
      { file: 'src/catalogue/types.ts', text: "import { callOperation } from '../call/pipeline.js';" },
      { file: 'src/mcp/prompts.ts', text: "import { parseCommand } from '../config/parse.js';" },
      { file: 'src/mcp/prompts.ts', text: "export { parseCommand } from '../config/index.js';" },
      { file: 'src/call/render.ts', text: "const m = await import('../nowhere.js');" },
    ];
    expect(findings(planted)).toEqual([
      { rule: 'up a layer', edge: 'src/catalogue/types.ts -> src/call/pipeline.ts' },
      { rule: 'face bypassed', edge: 'src/mcp/prompts.ts -> src/config/parse.ts' },
      { rule: 'no such file', edge: 'src/call/render.ts -> src/nowhere.ts' },
    ]);
  });
});

describe(`the layout table (${DOC})`, () => {
  const rows = layoutSection
    .split('\n')
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const [, where = '', what = ''] = line.split(/ \| |^\| | \|$/);
      return { where, what };
    });
  /** The paths of a row's first column; a bare name is in the folder of the path before it (`a/b.ts`, `c.ts`). */
  const whereOf = (cell: string) => {
    let dir = '';
    return [...cell.matchAll(/`([^`]+)`/g)].map(([, path]) => {
      const full = path!.includes('/') && !path!.startsWith('./') ? path! : `${dir}${path}`;
      dir = full.endsWith('/') ? full : `${dirname(full)}/`;
      return full;
    });
  };

  it('names only paths that exist, in both columns', () => {
    const missing: string[] = [];
    for (const { where, what } of rows) {
      const paths = whereOf(where);
      for (const path of paths) if (!existsSync(path)) missing.push(path);
      // In the second column, a file or folder name (`x.ts`, `dir/`) is in the row's folder, or a path from src/
      // or the repository's root; what the build writes (dist/) is not in a clone before it.
      const folder = paths[0]!.endsWith('/') ? paths[0]! : `${dirname(paths[0]!)}/`;
      for (const [, name] of what.matchAll(/`([\w./-]+(?:\.(?:ts|mjs|json|html)|\/))`/g)) {
        if (name!.startsWith('dist/')) continue;
        if (![`${folder}${name}`, `src/${name}`, name!].some((path) => existsSync(path))) missing.push(name!);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names every folder and file at the top of src/', () => {
    const named = new Set(rows.flatMap(({ where }) => whereOf(where)));
    const top = readdirSync('src').map((name) =>
      statSync(`src/${name}`).isDirectory() ? `src/${name}/` : `src/${name}`,
    );
    expect(top.filter((path) => !named.has(path))).toEqual([]);
  });
});
