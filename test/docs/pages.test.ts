/**
 * The README and docs/ say only what is so: the README stays short and shows first a route that works today; every
 * relative link lands on a file and heading; every variable, tool, resource, prompt and log event they name exists;
 * every default they state in brackets is the table's. The names come from the server itself (listed in process)
 * and from the source, never from the pages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableDefault, variableNamed } from '../../src/config/env-variables.js';
import { connect, type Harness } from '../mcp/harness.js';

const README = 'README.md';
const PAGES = [
  README,
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (path: string) => readFileSync(path, 'utf8');

/** The text a reader sees as prose: without fenced blocks and inline code (links and names in code are examples). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
/** Every inline code span. */
const codeSpans = (markdown: string) => [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The route that works only once the package is on npm. */
const NPM_ONLY = /npx\s+-y\s+svc-platform-mcp\b|"-y",\s*"svc-platform-mcp"/;
/** Routes that work today: the tarball, or a clone's build. */
const WORKS_TODAY = /--package"?,?\s*"?\/[^\s"]+\.tgz|dist\/cli\.js/;

/** The sections of a Markdown text under headings of one level, by title. */
function sections(markdown: string, level: number): Map<string, string> {
  const marker = `${'#'.repeat(level)} `;
  const found = new Map<string, string>();
  let title: string | undefined;
  let lines: string[] = [];
  let fenced = false;
  for (const line of `${markdown}\n${marker}end`.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} /.test(line) ? /^(#+) (.*)$/.exec(line)! : undefined;
    if (heading && heading[1]!.length <= level) {
      if (title !== undefined) found.set(title, lines.join('\n'));
      title = heading[1]!.length === level ? heading[2]! : undefined;
      lines = [];
    } else lines.push(line);
  }
  return found;
}

const fencedBlocks = (markdown: string) => [...markdown.matchAll(/^```\w*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);

describe('the README', () => {
  const readme = read(README);

  it('stays short: at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('shows for each client one snippet, whose route works today (the tarball or a clone), never npm first', () => {
    const clients = sections(sections(readme, 2).get('Connect a client') ?? '', 3);
    expect([...clients.keys()]).toEqual(['Claude Desktop', 'Claude Code', 'VS Code', 'Cursor', 'Any other client']);
    for (const [client, text] of clients) {
      const blocks = fencedBlocks(text);
      expect(blocks, client).toHaveLength(1);
      expect(blocks[0], client).toMatch(WORKS_TODAY);
      expect(blocks[0], client).not.toMatch(NPM_ONLY);
    }
  });

  it('names the npm route only as what works once the package is published', () => {
    const lines = readme.split('\n').filter((line) => NPM_ONLY.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/once published/i);
    expect(readme.indexOf(lines[0]!)).toBeGreaterThan(readme.search(WORKS_TODAY));
  });

  it('does not send the reader to itself', () => {
    expect(prose(readme)).not.toMatch(/\b(see|in) the README\b/i);
  });

  it('says which Node versions are supported: those scripts/nodes.mjs installs for CI', async () => {
    const nodes = new URL('../../scripts/nodes.mjs', import.meta.url).href;
    const { NODE_VERSIONS } = (await import(nodes)) as { NODE_VERSIONS: Record<string, string> };
    const section = sections(readme, 2).get('Supported Node versions') ?? '';
    const majors = Object.keys(NODE_VERSIONS);
    expect(section).toContain(`Node.js ${majors.slice(0, -1).join(', ')} and ${majors.at(-1)}.`);
  });
});

describe.each(PAGES)('%s', (page) => {
  const text = read(page);

  it('links only to files that exist, and to headings they have', () => {
    const broken: string[] = [];
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${file}`);
        continue;
      }
      if (anchor !== undefined && !(file.endsWith('.md') && anchorsOf(read(file)).has(anchor)))
        broken.push(`${target}: no heading #${anchor} in ${file}`);
    }
    expect(broken).toEqual([]);
  });

  it('names only environment variables of the table', () => {
    const names = [...text.matchAll(/\b(?:SVC_<SERVICE>_URL|SVC_[A-Z0-9_]*[A-Z0-9]|HTTPS?_PROXY|NO_PROXY)\b/g)].map(
      (m) => m[0],
    );
    const unknown = names.filter((name) => name !== 'SVC_<SERVICE>_URL' && variableNamed(name) === undefined);
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('states the default of a variable, in brackets after its name, as the table has it', () => {
    const wrong: string[] = [];
    const units: Record<string, string> = {
      second: 's',
      seconds: 's',
      minute: 'min',
      minutes: 'min',
      hour: 'h',
      hours: 'h',
    };
    const pattern = /`([A-Z][A-Z0-9_]+)` \((\d[\d,]*(?: (?:ms|s|min|h|KiB|MiB|GiB|seconds?|minutes?|hours?)\b)?)/g;
    for (const [, name, said] of text.matchAll(pattern)) {
      const variable = variableNamed(name!);
      if (variable?.default === undefined) continue;
      const [number, word] = said!.replace(/,/g, '').split(' ');
      const unit = word === undefined ? undefined : (units[word] ?? word);
      const table = unit === undefined ? variable.default : readableDefault(variable);
      if ((unit === undefined ? number : `${number} ${unit}`) !== table)
        wrong.push(`${name} (${said}): the table says ${table}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('names of the server in README.md and docs/', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await connect();
  });
  afterAll(() => harness?.close());

  const spans = PAGES.flatMap((page) => codeSpans(read(page)));
  const SERVICE_PREFIX =
    /^(?:streaming|translation|dataflow|maps|apigateway|datacatalog|bigdata|recommendation|textgen|search|kms)_[a-z_]+$/;

  it('every tool named exists', async () => {
    const tools = new Set((await harness.client.listTools()).tools.map((t) => t.name));
    expect(tools.size).toBe(16);
    const named = spans.filter((span) => SERVICE_PREFIX.test(span) || span === 'translate_and_summarize');
    expect(named.length).toBeGreaterThan(16);
    expect([...new Set(named.filter((name) => !tools.has(name)))]).toEqual([]);
  });

  it('every resource and prompt named exists', async () => {
    const uris = (await harness.client.listResources()).resources.map((r) => r.uri);
    const templates = (await harness.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    const served = (uri: string) =>
      uris.includes(uri) ||
      templates.some((t) => t === uri || new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`).test(uri));
    const named = spans.filter((span) => /^svc:\/\/\w/.test(span));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((uri) => !served(uri))).toEqual([]);
    const prompts = new Set((await harness.client.listPrompts()).prompts.map((p) => p.name));
    const table = sections(read('docs/tools.md'), 2).get('Prompts') ?? '';
    const rows = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
    expect(rows.sort()).toEqual([...prompts].sort());
  });
});

describe('logs in docs/', () => {
  const logDocs = read('docs/http.md') + read('docs/reliability.md');
  const src = readdirSync('src', { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => read(join(entry.parentPath, entry.name)))
    .join('\n');

  /** The first cells of the tables whose first column is headed `first`. */
  function firstCells(markdown: string, first: string): string[] {
    const cells: string[] = [];
    let inTable = false;
    for (const line of markdown.split('\n')) {
      if (line.startsWith(`| ${first} |`)) inTable = true;
      else if (!line.startsWith('|')) inTable = false;
      else if (inTable && !line.startsWith('|---')) cells.push(/^\| `?([^|`]+)`? \|/.exec(line)?.[1] ?? line);
    }
    return cells;
  }

  it('documents every log event the server writes, with its fields, and no other', () => {
    const written = new Set([...src.matchAll(/event: '([a-z_]+)'/g)].map((m) => m[1]!));
    expect(written).toContain('tool_call');
    const examples = [...logDocs.matchAll(/"event":"([a-z_]+)"/g)].map((m) => m[1]!);
    const documented = new Set([...firstCells(logDocs, 'event'), ...examples]);
    expect([...written].filter((event) => !documented.has(event))).toEqual([]);
    expect([...documented].filter((event) => !written.has(event))).toEqual([]);
    // http_request's fields are its own table: every field of its log entry type is in it.
    const entry = /interface RequestLogEntry \{([\s\S]*?)\n\}/.exec(src)![1]!;
    const fields = [...entry.matchAll(/^\s+(\w+)\??:/gm)].map((m) => m[1]!).filter((f) => f !== 'event');
    const cells = firstCells(read('docs/http.md'), 'field').join(', ');
    expect(fields.filter((field) => !cells.includes(`\`${field}\``) && !cells.includes(field))).toEqual([]);
  });

  it("lists every reason the HTTP transport refuses a request for, and stdio's", () => {
    const refused = new Set([...src.matchAll(/refused = '([a-z_]+)'/g)].map((m) => m[1]!));
    expect(refused).toContain('host');
    const line =
      read('docs/http.md')
        .split('\n')
        .find((l) => l.startsWith('| `refused` |')) ?? '';
    expect([...refused].filter((reason) => !line.includes(`\`${reason}\``))).toEqual([]);
    const lines = read('src/transports/stdio-lines.ts');
    const stdio = new Set(
      [...lines.matchAll(/reason: '([a-z_]+)'/g), ...lines.matchAll(/#answer\([^;'\n]*?'([a-z_]+)'/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(stdio).toEqual(new Set(['parse_error', 'invalid_request', 'too_large', 'shutting_down']));
    const row =
      read('docs/reliability.md')
        .split('\n')
        .find((l) => l.startsWith('| `stdio_refused` |')) ?? '';
    expect([...stdio].filter((reason) => !row.includes(`\`${reason}\``))).toEqual([]);
  });
});
