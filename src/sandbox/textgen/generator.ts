import { fnv1a, mulberry32 } from './random.js';
import type { Generation, StopReason } from './generation.js';

export type { Generation } from './generation.js';
import { summarise, summaryRequest } from './summary.js';
import { tokenize } from './tokenizer.js';
import { ENGLISH, KOREAN, topicOf, withParticle, type Grammar } from './vocabulary.js';

export interface GenerationOptions {
  /** What the model continues: the user's text followed by `start`. */
  prompt: string;
  maxTokens: number;
  temperature: number;
  topK: number;
  topP: number;
  repeatPenalty: number;
  stopBefore: readonly string[];
}

interface Candidate {
  phrase: string;
  logit: number;
}

/**
 * A deterministic stand-in for a language model. It writes sentences from a small grammar (Korean when the
 * prompt has Hangul, English otherwise), choosing each phrase by sampling with the request's temperature, topK,
 * topP and repeatPenalty from a PRNG seeded by the prompt and temperature, and emits them token by token. It
 * stops before the first stopBefore sequence (`stop_before`), after maxTokens tokens (`length`), or after the
 * sentences it planned, more for longer prompts (`end_token`). A prompt that asks for a summary gets an extractive,
 * marked one instead (summary.ts): sentences of the text, never filler.
 */
export function generate(options: GenerationOptions): Generation {
  const summary = summaryRequest(options.prompt);
  if (summary) return summarise(summary, options);
  const korean = /\p{Script=Hangul}/u.test(options.prompt);
  const grammar = korean ? KOREAN : ENGLISH;
  const topic = topicOf(options.prompt, korean);
  const random = mulberry32(fnv1a(`${options.prompt}\u0000${options.temperature}`));
  const planned = Math.min(40, 1 + Math.floor(random() * 2) + Math.floor(tokenize(options.prompt).length / 12));
  const used = new Map<string, number>();

  const pick = (slot: readonly string[]): { phrase: string; prob: number } => {
    const candidates: Candidate[] = [];
    slot.forEach((raw, rank) => {
      if (raw.includes('{topic}') && !topic) return;
      const phrase = raw.replace('{topic}', topic ?? '');
      const repeats = used.get(phrase) ?? 0;
      candidates.push({ phrase, logit: -0.6 * rank - Math.log(options.repeatPenalty) * repeats });
    });
    const chosen = sample(candidates, options, random());
    used.set(chosen.phrase, (used.get(chosen.phrase) ?? 0) + 1);
    return chosen;
  };

  const tokens: string[] = [];
  const probs: number[] = [];
  let text = '';
  let separator = options.prompt === '' || /\s$/u.test(options.prompt) ? '' : ' ';

  /** Appends one token; answers a stop reason when generation must end here. */
  const emit = (token: string, prob: number): StopReason | undefined => {
    tokens.push(token);
    probs.push(round(prob));
    text += token;
    const cut = earliestStop(text, options.stopBefore);
    if (cut !== undefined) {
      truncate(cut);
      return 'stop_before';
    }
    return tokens.length >= options.maxTokens ? 'length' : undefined;
  };

  const truncate = (at: number) => {
    let length = 0;
    let keep = 0;
    while (keep < tokens.length && length + tokens[keep]!.length <= at) length += tokens[keep++]!.length;
    const partial = tokens[keep]?.slice(0, at - length) ?? '';
    const partialProb = probs[keep];
    tokens.length = keep;
    probs.length = keep;
    if (partial !== '' && partialProb !== undefined) {
      tokens.push(partial);
      probs.push(partialProb);
    }
    text = text.slice(0, at);
  };

  for (let s = 0; s < planned; s++) {
    for (const { phrase, prob } of sentence(grammar, korean, s, pick, random)) {
      const words = phrase.split(' ');
      for (let w = 0; w < words.length; w++) {
        const word = words[w]!;
        const token = word === '.' ? word : separator + word;
        separator = ' ';
        // Given the phrase, its later words are certain.
        const reason = emit(token, w === 0 ? prob : 1);
        if (reason) return { text, tokens, probs, stopReason: reason };
      }
    }
  }
  return { text, tokens, probs, stopReason: 'end_token' };
}

/** One sentence as chosen phrases; the final '.' is a token of its own. */
function sentence(
  grammar: Grammar,
  korean: boolean,
  index: number,
  pick: (slot: readonly string[]) => { phrase: string; prob: number },
  random: () => number,
): { phrase: string; prob: number }[] {
  const parts: { phrase: string; prob: number }[] = [];
  if (index > 0 && random() < 0.35) parts.push(pick(grammar.connectors));
  const subject = pick(grammar.subjects);
  const withTail = random() < 0.5;
  if (korean) {
    parts.push({ ...subject, phrase: withParticle(subject.phrase, 'topic') });
    if (withTail) parts.push(pick(grammar.tails));
    const object = pick(grammar.objects);
    parts.push({ ...object, phrase: withParticle(object.phrase, 'object') });
    parts.push(pick(grammar.verbs));
  } else {
    parts.push(subject);
    parts.push(pick(grammar.verbs));
    parts.push(pick(grammar.objects));
    if (withTail) parts.push(pick(grammar.tails));
  }
  const first = parts[0]!;
  parts[0] = { ...first, phrase: first.phrase.charAt(0).toUpperCase() + first.phrase.slice(1) };
  parts.push({ phrase: '.', prob: 1 });
  return parts;
}

/** Softmax at `temperature`, then the topK (0: off) and topP (nucleus) cuts, then one draw with `u` in [0, 1). */
function sample(candidates: Candidate[], o: GenerationOptions, u: number): { phrase: string; prob: number } {
  const max = Math.max(...candidates.map((c) => c.logit));
  let weighted = candidates
    .map((c) => ({ phrase: c.phrase, weight: Math.exp((c.logit - max) / o.temperature) }))
    .sort((a, b) => b.weight - a.weight);
  if (o.topK > 0) weighted = weighted.slice(0, o.topK);
  let total = weighted.reduce((sum, c) => sum + c.weight, 0);
  let cumulative = 0;
  const nucleus: typeof weighted = [];
  for (const c of weighted) {
    nucleus.push(c);
    cumulative += c.weight / total;
    if (cumulative >= o.topP) break;
  }
  total = nucleus.reduce((sum, c) => sum + c.weight, 0);
  let acc = 0;
  for (const c of nucleus) {
    acc += c.weight / total;
    if (u < acc) return { phrase: c.phrase, prob: c.weight / total };
  }
  const last = nucleus[nucleus.length - 1]!;
  return { phrase: last.phrase, prob: last.weight / total };
}

function earliestStop(text: string, stops: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (best === undefined || at < best)) best = at;
  }
  return best;
}

const round = (p: number) => Math.round(p * 1e6) / 1e6;
