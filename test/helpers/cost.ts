/**
 * Claims of cost without a clock bound: a machine busy with other work makes every run slower, but slows two runs
 * taken turn about in the same process alike. So a test compares the work it cares about with a baseline measured
 * beside it (the same work on a smaller input, or a plain pass over the same input), as a ratio of the quickest
 * runs, and leaves absolute times to `npm run bench`.
 */

/** Wall time of `times` runs, in ms. */
async function timed(run: () => unknown, times: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < times; i += 1) await run();
  return performance.now() - started;
}

/**
 * Other work on the machine only ever adds time to a measurement, never takes it away: the quickest of several is the
 * closest to the work's own cost. (The median let a preempted majority through: a linear redaction measured 4.96 in a
 * CI run beside two other test runs, and 0.5-1.1 alone under the same load.)
 */
const quickest = (values: number[]) => Math.min(...values);

/** What one measurement should last at least: well above the clock's and the scheduler's grain. */
const MEASURED_MS = 20;

/**
 * How many times longer `work` takes than `baseline`: the quickest of `runs` measurements of each, taken turn about
 * (so that a burst of load elsewhere falls on both), after one unmeasured run of each (compilation, caches). Work
 * quicker than MEASURED_MS is repeated within a measurement, as often on both sides.
 */
export async function costRatio(work: () => unknown, baseline: () => unknown, runs = 5): Promise<number> {
  await work();
  const once = await timed(baseline, 1);
  const times = Math.min(1000, Math.ceil(MEASURED_MS / Math.max(once, 0.02)));
  const measured = { work: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < runs; i += 1) {
    measured.work.push(await timed(work, times));
    measured.baseline.push(await timed(baseline, times));
  }
  return quickest(measured.work) / quickest(measured.baseline);
}

/**
 * How much faster than its size the cost of `work` grows: its cost on the input `make(size)` over the cost of eight
 * runs on `make(size / 8)` (the inputs are made before, untimed). Both take about as long, so that a preemption
 * weighs on both alike. Linear work gives about 1 (less with fixed costs), quadratic work about 8; below LINEAR
 * passes, leaving room for noise, far below what a quadratic step adds.
 */
export async function growthFactor<T>(
  make: (size: number) => T,
  work: (input: T) => unknown,
  size: number,
  runs = 5,
): Promise<number> {
  const large = make(size);
  const small = make(Math.max(1, Math.floor(size / GROWTH)));
  return costRatio(
    () => work(large),
    async () => {
      for (let i = 0; i < GROWTH; i += 1) await work(small);
    },
    runs,
  );
}
const GROWTH = 8;
/**
 * What growthFactor may return for linear work: halfway to quadratic's 8. 3 was too close to the noise of a shared
 * machine (a linear redaction measured 3.3 once in CI, next to 0.8-1.5 in every other run).
 */
export const LINEAR = 4.5;
