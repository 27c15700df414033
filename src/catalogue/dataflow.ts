import * as z from 'zod';
import { maybeArray, maybeInteger, maybeObject, maybeString } from './answers.js';
import { pathSegment } from './fields.js';
import { defineOperation } from './types.js';

export const updateJobExecutionOptions = defineOperation({
  id: 'E4',
  name: 'dataflow_update_job_execution_options',
  title: 'Update job execution options',
  description: "Replaces a data-flow job's execution options.",
  service: 'dataflow',
  method: 'PUT',
  path: '/api/v1/jobs/{jobId}/executions',
  auth: 'gateway-signature',
  input: () =>
    z.strictObject({
      jobId: pathSegment(),
      jobCondition: z
        .strictObject({
          numWorker: z.int().min(2).max(10).optional(),
          timeout: z.int().min(1).max(1440).optional().describe('Minutes'),
          nrn: z.string().describe('Resource id of the job'),
          scriptPath: z.string(),
          logPath: z.string(),
        })
        .describe('Execution options'),
    }),
  output: () =>
    z.looseObject({
      jobId: z.string(),
      name: maybeString(),
      type: maybeString(),
      status: maybeString().describe('RUNNABLE, RUNNING, DELETED, UNKNOWN, DRAFT, STOPPED or EDITING'),
      nodes: maybeArray(z.looseObject({})),
      runCondition: maybeObject({
        numWorker: maybeInteger(),
        timeout: maybeInteger(),
        nrn: maybeString(),
        scriptPath: maybeString(),
        logPath: maybeString(),
      }),
      createdDate: maybeString(),
      updatedDate: maybeString(),
    }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
