/** UTF-16: the text without its U+0000 units (ASCII as UTF-16LE or BE bytes shown as text, or decoded from hex). */
import { Builder, type Decoder } from './view.js';

/**
 * Runs of UTF-16 read a byte at a time: every other unit U+0000 (ASCII as UTF-16LE or BE bytes shown as text, or
 * decoded from hex or base64), at least `min` pairs, read without those zeros.
 */
export const decodeUtf16: Decoder = (view, min) => {
  const { text } = view;
  const n = text.length;
  let builder: Builder | undefined;
  for (let zero = text.indexOf('\0'); zero !== -1;) {
    // The run's units sit either just before each zero (LE) or just after (BE); a run alone cannot tell which, and
    // both are read.
    let end = zero + 1;
    for (const side of [-1, 1]) {
      let count = 0;
      let at = zero;
      while (text.charCodeAt(at) === 0 && at + side >= 0 && at + side < n) {
        count += 1;
        at += 2;
      }
      end = Math.max(end, at);
      if (count < min) continue;
      builder ??= new Builder(view, n);
      builder.addBreak(zero);
      for (let k = 0, z = zero; k < count; k += 1, z += 2) {
        builder.add(text.charCodeAt(z + side), Math.min(z, z + side), Math.max(z, z + side) + 1);
      }
    }
    zero = text.indexOf('\0', end);
  }
  return builder?.view();
};
