import { updateJobExecutionOptions } from '../../catalogue/dataflow.js';
import { fail, notFound } from '../errors.js';
import { dataflowFixtures, type Job } from '../fixtures/dataflow.js';
import { kstIso } from '../time.js';
import { routeOf } from '../route-of.js';
import type { Route } from '../types.js';
import { optionalInt, requireObject, requireString } from '../validate.js';

/**
 * E4. The update replaces nrn/scriptPath/logPath and, when given, numWorker/timeout (an omitted optional
 * keeps its current value), and moves updatedDate. The spec does not say what it does to the status, so the
 * status is left unchanged.
 */
export function dataflowRoutes(): Route[] {
  const jobs = new Map(dataflowFixtures().map((job) => [job.jobId, job]));
  return [
    routeOf(updateJobExecutionOptions, (req, ctx) => {
      const job = jobs.get(req.params.jobId!) ?? fail(notFound(`job ${req.params.jobId} does not exist`));
      const input = requireObject(req.body, 'request body');
      const condition = requireObject(input.jobCondition, 'jobCondition');
      const numWorker = optionalInt(condition, 'numWorker', { min: 2, max: 10 });
      const timeout = optionalInt(condition, 'timeout', { min: 1, max: 1440 });
      const nrn = requireString(condition, 'nrn', { minLength: 1 });
      const scriptPath = requireString(condition, 'scriptPath', { minLength: 1 });
      const logPath = requireString(condition, 'logPath', { minLength: 1 });

      job.runCondition = {
        numWorker: numWorker ?? job.runCondition.numWorker,
        timeout: timeout ?? job.runCondition.timeout,
        nrn,
        scriptPath,
        logPath,
      };
      job.updatedDate = kstIso(ctx.now());
      return { status: 200, json: snapshot(job) };
    }),
  ];
}

/** A copy, so a caller holding the answer cannot reach into the sandbox's state. */
const snapshot = (job: Job): Job => structuredClone(job);
