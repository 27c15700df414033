import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import type { Operation } from '../../src/catalogue/types.js';

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

/** The README's tool table, generated from the catalogue. */
export function toolTable(): string {
  const rows = CATALOGUE.map(
    (op) =>
      `| ${op.id} | \`${op.name}\` | ${op.title} | \`${op.method} ${op.path}\` | ${AUTH[op.auth]} | ${behaviour(op)} |`,
  );
  return [
    '| op | tool | what it does | upstream request | auth | effect |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
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
