// The generated blocks of README.md and docs/*.md (between `<!-- name:start -->` and `<!-- name:end -->`), written
// by `npm run generate` and compared by test/docs/generated.test.ts. Their section links are written as anchors
// alone; links.ts points each to its page.
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import type { Operation } from '../../src/catalogue/types.js';
import {
  BASIS_MEANINGS,
  GLOSSARY_PAIRS_WORDS,
  HONORIFIC_WORDS,
  REFUSED_DIRECTIONS,
  TEXT_LIMIT,
  directionCounts,
} from '../../src/catalogue/translation-rules.js';
import {
  ENV_GROUPS,
  ENV_VARIABLES,
  inWords,
  namesOf,
  pairedWith,
  placeholderOf,
  readableDefault,
  type EnvVariable,
} from '../../src/config/env-variables.js';
import { FLAGS, HTTP_ONLY_FLAGS, type Flag } from '../../src/config/flags.js';

const AUTH: Record<Operation['auth'], string> = {
  'gateway-signature': 'signature',
  'app-key-upper': 'app key',
  'app-key-lower': 'app key',
  studio: 'studio keys',
};

function behaviour(op: Operation): string {
  const a = op.annotations;
  if (a.destructiveHint) return '**destructive**';
  if (a.readOnlyHint) return 'read-only';
  return a.idempotentHint ? 'writes (idempotent)' : 'writes';
}

/** The tool table (README.md), generated from the catalogue. */
export function toolTable(): string {
  const rows = CATALOGUE.map(
    (op) =>
      `| ${op.id} | \`${op.name}\` | ${op.title} | \`${op.method} ${op.path}\` | ${AUTH[op.auth]} | ${behaviour(op)} |`,
  );
  return ['| op | tool | what it does | upstream request | auth | effect |', '|---|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBlock(doc: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`markers ${start} / ${end} not found`);
  return `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`;
}

/** The configuration table (README.md): every variable, the HTTP ones in one row pointing to their own table. */
export function envTable(): string {
  const rows = Object.keys(ENV_GROUPS).flatMap((group) => {
    const variables = ENV_VARIABLES.filter((v) => v.group === group);
    if (group !== 'http') return variables.map((v) => row([variableCell(v), defaultCell(v, ''), meaningCell(v)]));
    const names = variables.map((v) => `\`${v.name}\``).join(', ');
    return [row([names, '', 'HTTP transport settings, see [Streamable HTTP transport](#streamable-http-transport)'])];
  });
  return [row(['variable', 'default', 'meaning']), '|---|---|---|', ...rows].join('\n');
}

/** The table of the variables specific to the HTTP transport (docs/http.md). */
export function httpEnvTable(): string {
  const rows = ENV_VARIABLES.filter((v) => v.group === 'http').map((v) =>
    row([variableCell(v), defaultCell(v, 'unset'), meaningCell(v)]),
  );
  return [row(['Variable', 'Default', 'Meaning']), '|---|---|---|', ...rows].join('\n');
}

/** What a credential profile may set (docs/profiles.md): the env table's rows marked `profile`. */
export function profileVariablesTable(): string {
  const rows = ENV_VARIABLES.filter((v: EnvVariable) => v.profile !== undefined).map((v: EnvVariable) =>
    row([
      variableCell(v),
      v.profile === 'narrowing' ? 'narrows the tools' : 'platform',
      v.secret ? '**secret**: `{"env": "NAME"}` or `{"file": "PATH"}`' : 'a string',
      meaningCell(v),
    ]),
  );
  return [row(['variable', 'for', 'value', 'meaning']), '|---|---|---|---|', ...rows].join('\n');
}

/** The flags of the HTTP transport (docs/http.md): --http and those that apply only with it, said after the table. */
export function httpFlagTable(): string {
  const rows = (Object.entries(FLAGS) as [string, Flag][])
    .filter(([name, flag]) => name === 'http' || flag.httpOnly)
    .map(([name, flag]) => {
      const fallback = flag.default === undefined ? (flag.type === 'boolean' ? 'off' : 'unset') : `\`${flag.default}\``;
      const meaning = flag.details ? `${flag.help}. ${flag.details}` : flag.help!;
      return row([`\`--${name}${flag.value ? ` ${flag.value}` : ''}\``, fallback, meaning]);
    });
  const httpOnly = HTTP_ONLY_FLAGS.map((name) => `\`--${name}\``);
  const rule = `${httpOnly.slice(0, -1).join(', ')} and ${httpOnly.at(-1)} only apply with \`--http\`: without it the start is refused.`;
  return [row(['Flag', 'Default', 'Meaning']), '|---|---|---|', ...rows, '', rule].join('\n');
}

function row(cells: readonly string[]): string {
  return `|${cells.map((cell) => (cell ? ` ${cell} ` : ' ')).join('|')}|`;
}

function variableCell(v: EnvVariable): string {
  const alias = v.alias ? ` (or \`${v.alias}\`)` : '';
  return `\`${v.name}\`${alias}${v.secret ? ' (secret)' : ''}`;
}

function defaultCell(v: EnvVariable, unset: string): string {
  if (v.default === undefined) return unset;
  const readable = readableDefault(v);
  return `\`${v.default}\`${readable ? ` (${readable})` : ''}`;
}

const code = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(', ');

/** A bound with its value in words: `600000` (10 min). */
const bound = (n: number, v: EnvVariable) => {
  const words = inWords(n, v.unit);
  return `\`${n}\`${words ? ` (${words})` : ''}`;
};

/**
 * The meaning, its values or bounds, its pair, then the details; names of variables in the (plain-text) meaning
 * become code.
 */
function meaningCell(v: EnvVariable): string {
  const names = new Set(ENV_VARIABLES.flatMap((other) => namesOf(other)));
  let text = v.meaning.replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, (word) =>
    names.has(word) ? `\`${word}\`` : word,
  );
  if (v.values) text += `; ${placeholderOf(v)} is ${code(v.values)}`;
  if (v.choices ?? v.listOf) text += `: ${code(v.choices ?? v.listOf!)}`;
  if (v.range) text += `; from ${bound(v.range[0], v)} to ${bound(v.range[1], v)}`;
  const partner = pairedWith(v.name);
  if (partner) text += `; set together with \`${partner}\``;
  // Table cells end without a full stop.
  if (v.details) text += `. ${v.details.replace(/\.$/, '')}`;
  return text;
}

/**
 * The note on translation directions (docs/tools.md): the counts, the meaning of each basis and what is refused, in the
 * words of src/catalogue/translation-rules.ts (which builds the resource and the tool's refusals from the same data).
 */
export function translationNote(): string {
  const counts = directionCounts();
  const basis = (name: keyof typeof BASIS_MEANINGS) => `\`${name}\` (${counts[name]}: ${BASIS_MEANINGS[name]})`;
  const text =
    "- **Translation (E3).** The spec's direction table lists each language pair once, and pairs work in both " +
    `directions. \`svc://translation/language-pairs\` lists the ${counts.total} directions the tool sends, each with its ` +
    `\`basis\`: ${basis('documented')}, ${basis('documented in reverse')} or ${basis('not documented')}. Every other ` +
    `direction is refused before anything is sent: ${REFUSED_DIRECTIONS} (e.g. ko → ko, ja → es). The ${TEXT_LIMIT} ` +
    'characters are counted as code points; `<span translate="no">…</span>` and `<span class="notranslate">…</span>` ' +
    '(either attribute form, any case, nested spans closing at their own tag) are left untranslated and not counted, ' +
    'but only on the directions where `glossaryAndReplaceInfo` is true (the spec gives span tags the languages of ' +
    'glossaries): elsewhere they count like any text. `glossaryKey` and `replaceInfo` are refused outside ' +
    `${GLOSSARY_PAIRS_WORDS}; \`honorific: true\` outside ${HONORIFIC_WORDS}. With \`source: auto\`, only what no ` +
    'source the text may have allows is refused. These rules are checked in code (one module, ' +
    "`src/catalogue/translation-rules.ts`, used by the tool, the workflow's chunker, the prompts, the resource and the " +
    'sandbox).';
  return wrap(text, 115, '  ');
}

/** Words to lines of at most `width` characters, every line after the first indented. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (next.length > width && line !== '') {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = next;
    }
  }
  lines.push(line);
  return lines.join('\n');
}
