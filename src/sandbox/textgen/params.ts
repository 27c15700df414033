/** The E12 request body after validation, defaults filled in (spec defaults; includeTokens defaults to false). */
interface CompletionParams {
  text: string;
  includeAiFilters: boolean;
  includeTokens: boolean;
  maxTokens: number;
  repeatPenalty: number;
  restart: string;
  start: string;
  stopBefore: string[];
  temperature: number;
  topK: number;
  topP: number;
}

export type ParsedParams = { ok: true; params: CompletionParams } | { ok: false; message: string };

class Invalid extends Error {}

/** Validates an E12 body by the spec's table; the first problem found is reported. Unknown fields are ignored. */
export function parseCompletionParams(body: unknown): ParsedParams {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: 'the body must be a JSON object' };
  const b = body as Record<string, unknown>;
  const present = (name: string) => b[name] !== undefined && b[name] !== null;

  const bool = (name: string, fallback: boolean): boolean => {
    const v = b[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw new Invalid(`${name} must be a boolean`);
    return v;
  };
  const str = (name: string): string => {
    const v = b[name];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new Invalid(`${name} must be a string`);
    return v;
  };
  const num = (name: string, fallback: number, rule: { gt?: number; min?: number; max: number; int?: boolean }) => {
    if (!present(name)) return fallback;
    const v = b[name];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Invalid(`${name} must be a number`);
    if (rule.int && !Number.isInteger(v)) throw new Invalid(`${name} must be an integer`);
    const lower = rule.gt !== undefined ? `${rule.gt} < ${name}` : `${rule.min} <= ${name}`;
    const inRange = (rule.gt !== undefined ? v > rule.gt : v >= (rule.min ?? -Infinity)) && v <= rule.max;
    if (!inRange) throw new Invalid(`${name} must satisfy ${lower} <= ${rule.max} (got ${v})`);
    return v;
  };

  try {
    if (!present('text')) throw new Invalid('text is required');
    // Required, with no minimum length in the spec: an empty prompt is completed like any other.
    const text = str('text');
    let stopBefore: string[] = [];
    if (present('stopBefore')) {
      const raw = b.stopBefore;
      if (!Array.isArray(raw) || !raw.every((s) => typeof s === 'string' && s !== ''))
        throw new Invalid('stopBefore must be an array of non-empty strings');
      stopBefore = raw as string[];
    }
    return {
      ok: true,
      params: {
        text,
        includeAiFilters: bool('includeAiFilters', true),
        includeTokens: bool('includeTokens', false),
        maxTokens: num('maxTokens', 100, { gt: 0, max: 2048, int: true }),
        repeatPenalty: num('repeatPenalty', 5.0, { gt: 0, max: 10 }),
        restart: str('restart'),
        start: str('start'),
        stopBefore,
        temperature: num('temperature', 0.5, { gt: 0, max: 1 }),
        topK: num('topK', 0, { min: 0, max: 128, int: true }),
        topP: num('topP', 0.8, { gt: 0, max: 1 }),
      },
    };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, message: error.message };
    throw error;
  }
}
