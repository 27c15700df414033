/**
 * The sandbox's tokenizer: a word (letters, marks, digits) or one other character, each with the whitespace in
 * front of it; trailing whitespace is a token of its own. Joining the tokens gives the text back exactly.
 */
const TOKEN = /\s*(?:[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}])|\s+/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The same tokens one at a time, for a caller that may stop early (maxTokens) without splitting the rest. */
export function* tokenStream(text: string): Generator<string> {
  for (const match of text.matchAll(TOKEN)) yield match[0];
}
