/**
 * Keeps secrets out of text we return or log. A secret is found however an upstream echoed it: as is, in any case,
 * JSON-escaped (`\"`, `\\`, `\/` or `\u00XX`, mixed), URL-encoded (`%XX`), or as base64; and of any length. The
 * value after a credential header's name (`x-…-signature-v2: …`) is replaced whatever it is.
 */
export class Redactor {
  readonly #secrets: readonly string[];
  readonly #headers: readonly string[];
  readonly #pattern: RegExp | undefined;
  readonly #headerValues: RegExp | undefined;

  constructor(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []) {
    this.#secrets = [...new Set(secrets)].filter((s) => s !== '');
    this.#headers = [...new Set(credentialHeaders)];
    const forms = this.#secrets.flatMap(spellings);
    // Longest first: a secret that contains another is replaced whole.
    forms.sort((a, b) => b.length - a.length);
    this.#pattern = forms.length > 0 ? new RegExp(forms.join('|'), 'gi') : undefined;
    const names = this.#headers.map(escapeRegExp);
    this.#headerValues =
      names.length > 0 ? new RegExp(`(${names.join('|')})(["']?\\s*[:=]\\s*["']?)(?!\\[redacted\\])[^"'\\s,;}\\]]+`, 'gi') : undefined;
  }

  redact(text: string): string {
    let out = this.#pattern ? text.replace(this.#pattern, '[redacted]') : text;
    if (this.#headerValues) out = out.replace(this.#headerValues, '$1$2[redacted]');
    return out;
  }

  /** A redactor that also knows these secrets (e.g. the ones one call sent). */
  with(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []): Redactor {
    return new Redactor([...this.#secrets, ...secrets], [...this.#headers, ...credentialHeaders]);
  }
}

/** Regular-expression sources matching a secret: literally or escaped character by character, and its base64. */
function spellings(secret: string): string[] {
  const perCharacter = [...secret].map(characterForms).join('');
  const base64 = Buffer.from(secret, 'utf8').toString('base64');
  const base64url = Buffer.from(secret, 'utf8').toString('base64url');
  return [...new Set([perCharacter, escapeRegExp(base64.replace(/=+$/, '')), escapeRegExp(base64url)])];
}

function characterForms(char: string): string {
  const forms = [escapeRegExp(char)];
  const code = char.codePointAt(0)!;
  if (code <= 0xffff) forms.push(`\\\\u${code.toString(16).padStart(4, '0')}`);
  else {
    const [high, low] = [char.charCodeAt(0), char.charCodeAt(1)];
    forms.push(`\\\\u${high.toString(16)}\\\\u${low.toString(16)}`);
  }
  if (char === '"' || char === '\\' || char === '/') forms.push(escapeRegExp(`\\${char}`));
  const percent = [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  forms.push(percent);
  if (char === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
