/**
 * Characters spaced out: `s e c r e t`, one character and then white space, again and again (a secret printed letter
 * by letter, or interleaved with spaces to pass a filter). A run of as many characters as the shortest secret may
 * have is read without the spaces. (Zero-width characters and soft hyphens between characters, and line breaks,
 * are left out of every view as it is searched: see fold.ts.)
 */
import { Builder, MIN_BYTES, type Decoder } from './view.js';

const SPACE = String.raw`[ \t\u00a0\u2000-\u200a\u3000]`;
const runs = new Map<number, RegExp>();
function runsOf(min: number): RegExp {
  let pattern = runs.get(min);
  if (!pattern) {
    pattern = new RegExp(String.raw`(?<!\S)(?:\S${SPACE}{1,3}){${min - 1},}\S(?!\S)`, 'g');
    runs.set(min, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

export const decodeSpaced: Decoder = (view, min) => {
  const { text } = view;
  let builder: Builder | undefined;
  // `min` counts bytes; a character of a secret is at most three of them.
  const pattern = runsOf(Math.max(MIN_BYTES, Math.ceil(min / 3)));
  for (let run = pattern.exec(text); run; run = pattern.exec(text)) {
    builder ??= new Builder(view, text.length);
    builder.addBreak(run.index);
    const end = run.index + run[0].length;
    for (let i = run.index; i < end; i += 1) {
      const unit = text.charCodeAt(i);
      if (!isSpace(unit)) builder.add(unit, i, i + 1);
    }
  }
  return builder?.view();
};

const isSpace = (unit: number) =>
  unit === 0x20 || unit === 0x09 || unit === 0xa0 || unit === 0x3000 || (unit >= 0x2000 && unit <= 0x200a);
