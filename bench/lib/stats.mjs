// Small statistics helpers shared by the benchmarks. Times are in milliseconds.

export function median(values) {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of a list of numbers; NaN for an empty list. */
function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summary(values) {
  return {
    n: values.length,
    min: round(Math.min(...values)),
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
  };
}

export const round = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

/** Fisher-Yates, for interleaving the order of targets in each round. */
export function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A Markdown table from a header row and rows of cells. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * How much slower `a` is than `b`, run in the same rounds: the median of the per-round differences (a[i] - b[i]), and
 * its 95% interval by bootstrap (resampling the rounds). Pairing cancels most of what the machine's load does to
 * both; an interval that holds 0 means the difference is within what this machine can measure.
 */
export function pairedDifference(a, b, resamples = 2000) {
  const diffs = a.map((x, i) => x - b[i]);
  const medians = [];
  for (let r = 0; r < resamples; r++) {
    medians.push(median(Array.from(diffs, () => diffs[Math.floor(Math.random() * diffs.length)])));
  }
  return {
    medianMs: round(median(diffs), 1),
    lowMs: round(percentile(medians, 2.5), 1),
    highMs: round(percentile(medians, 97.5), 1),
  };
}

/** "+3.2 ms (95%: −0.4 to +6.1)" */
export function formatDifference({ medianMs, lowMs, highMs }) {
  const signed = (x) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)}`;
  return `${signed(medianMs)} ms (95%: ${signed(lowMs)} to ${signed(highMs)})`;
}
