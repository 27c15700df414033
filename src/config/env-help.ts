import {
  ENV_GROUPS,
  ENV_VARIABLES,
  pairedWith,
  placeholderOf,
  rangeText,
  readableDefault,
  type EnvVariable,
} from './env-variables.js';

/** Terminals of 100 columns show every line whole; the text stays readable when an 80-column one wraps it. */
const WIDTH = 100;
const NAME_INDENT = '    ';

/** The "Environment" part of --help: the variables by group, one entry each, meanings wrapped under each other. */
export function environmentHelp(): string {
  const names = ENV_VARIABLES.map(helpName);
  const column = NAME_INDENT.length + Math.max(...names.map((n) => n.length)) + 2;
  const lines = ['Environment (* marks a secret; more in the README):'];
  for (const [group, heading] of Object.entries(ENV_GROUPS)) {
    lines.push(`  ${heading}`);
    for (const variable of ENV_VARIABLES.filter((v) => v.group === group)) {
      const [first = '', ...rest] = wrap(helpWords(variable), WIDTH - column);
      lines.push(`${NAME_INDENT}${helpName(variable).padEnd(column - NAME_INDENT.length)}${first}`);
      for (const line of rest) lines.push(`${' '.repeat(column)}${line}`);
    }
  }
  return lines.join('\n');
}

function helpName(variable: EnvVariable): string {
  const name = variable.alias ? `${variable.name}, ${variable.alias}` : variable.name;
  return variable.secret ? `${name} *` : name;
}

/** The words of an entry; the bounds and the default each stay whole when wrapped. */
function helpWords(variable: EnvVariable): string[] {
  const words = variable.meaning.split(' ');
  if (variable.values) {
    words.push(`(${placeholderOf(variable)}:`, ...commaSeparated(variable.values));
    words.push(`${words.pop()})`);
  }
  const values = variable.choices ?? variable.listOf;
  if (values) words.push(`${words.pop()}:`, ...commaSeparated(values));
  const partner = pairedWith(variable.name);
  if (partner) words.push('(set', 'with', `${partner})`);
  const range = rangeText(variable);
  if (variable.default !== undefined) {
    const readable = readableDefault(variable);
    words.push(`(${range ? `${range}; ` : ''}default ${variable.default}${readable ? ` = ${readable}` : ''})`);
  }
  return words;
}

const commaSeparated = (values: readonly string[]) => values.map((v, i) => (i < values.length - 1 ? `${v},` : v));

/** Greedy wrap; a word longer than the width gets a line of its own. */
function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}
