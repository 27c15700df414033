import type { ServiceId } from './types.js';

/**
 * What no operation of this server does, by service: the spec covers one or two operations of each service, and an
 * agent that assumes the rest (a list of keys, a call that creates a domain) guesses ids or promises what cannot be
 * done. The server's instructions say these for the services it offers; the tools whose ids come from elsewhere say
 * it in their descriptions too.
 */
const NOT_OFFERED: Readonly<
  Partial<Record<ServiceId, { listsOrReads?: readonly string[]; creates?: readonly string[] }>>
> = {
  streaming: { listsOrReads: ['Kafka versions'] },
  dataflow: { listsOrReads: ['data-flow jobs'] },
  apigateway: { listsOrReads: ['existing method responses'] },
  datacatalog: { listsOrReads: ['catalogs', 'scanners'] },
  bigdata: { creates: ['a big-data app'] },
  recommendation: { listsOrReads: ['recommendation services'] },
  textgen: { listsOrReads: ['text-generation models'] },
  search: { listsOrReads: ['search domains', 'search schemas'], creates: ['a search domain'] },
  kms: { listsOrReads: ['keys'] },
};

/** One sentence of what the given services lack, or undefined when they lack nothing named here. */
export function notOfferedWords(services: readonly ServiceId[]): string | undefined {
  const known = services.map((s) => NOT_OFFERED[s]).filter((gap) => gap !== undefined);
  const reads = known.flatMap((gap) => gap.listsOrReads ?? []);
  const creates = known.flatMap((gap) => gap.creates ?? []);
  const parts = [
    reads.length > 0 ? `no tool lists or reads ${listed(reads, 'or')}` : '',
    creates.length > 0 ? `none creates ${listed(creates, 'or')}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return undefined;
  const sentence = parts.join(', and ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}: ask the user for such ids and values, never guess.`;
}

/** a; a or b; a, b or c. */
const listed = (items: readonly string[], word: string) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)!}`;
