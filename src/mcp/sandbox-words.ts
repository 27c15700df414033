import type { ServiceId } from '../catalogue/types.js';

/**
 * What the sandbox (`--sandbox`) fakes, by service: said in the instructions at length and, where the agent decides,
 * in a few words after the tool's description. Every such answer also carries a `simulated` member.
 */
export const SANDBOX_FAKES: Readonly<Partial<Record<ServiceId, { words: string; brief: string }>>> = {
  translation: {
    words:
      'translation translates only the few sentences of its phrasebook (greetings, thanks, a few travel and ' +
      'meeting sentences) and returns other text as written, marked [not translated by the sandbox: …]',
    brief: 'Sandbox: a small phrasebook only (see simulated).',
  },
  textgen: {
    words:
      'completions are filler sentences from a small grammar (for a summary, the first sentences of the text), not a model',
    brief: 'Sandbox: filler, not a model (see simulated).',
  },
};
