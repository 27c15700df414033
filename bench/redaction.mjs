// Issue 32, point 4: the redactor of every spelling costs no more than 1.5× the one before it (ad7d133) on a 4 MiB
// answer. Both run in this one process on the same answers, run by run; the ratio is of the medians.
import { withBundled } from '../scripts/lib/import-bundled.mjs';
import { ROOT, isMain, saveJson } from './lib/results.mjs';
import { median, round, table } from './lib/stats.mjs';

/** The most the redactor may cost, as a multiple of the one before every spelling. */
export const TARGET_RATIO = 1.5;

export async function run({ runs = 9 } = {}) {
  const rows = await withBundled(`${ROOT}bench/fixtures/redaction.ts`, (fixture) => fixture.run(runs));
  const measured = rows.map(({ answer, mib, times }) => {
    const before = median(times.before);
    const after = median(times.after);
    const ratio = round(after / before, 2);
    return { answer, mib: round(mib, 2), beforeMs: round(before, 1), afterMs: round(after, 1), ratio };
  });
  const markdown = [
    '### Redaction: every spelling against the redactor before it (ad7d133), same process',
    '',
    table(
      ['answer', 'MiB', 'before ms', 'now ms', 'ratio'],
      measured.map((m) => [
        m.answer,
        m.mib.toFixed(2),
        m.beforeMs.toFixed(0),
        m.afterMs.toFixed(0),
        `${m.ratio.toFixed(2)}×`,
      ]),
    ),
  ].join('\n');
  return { name: 'redaction', json: { runs, targetRatio: TARGET_RATIO, measured }, markdown };
}

if (isMain(import.meta.url)) {
  const result = await run();
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
