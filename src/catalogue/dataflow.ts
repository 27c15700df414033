import * as z from 'zod';
import { pathSegment } from './fields.js';
import { defineOperation } from './types.js';

export const updateJobExecutionOptions = defineOperation({
  id: 'E4',
  name: 'dataflow_update_job_execution_options',
  title: 'Update job execution options',
  description:
    "Edits a data-flow job's execution options; does not run the job. Needs its nrn, scriptPath and logPath, which " +
    'no tool here reads: ask the user, never guess.',
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
          nrn: z.string().min(1).describe('Resource id of the job'),
          scriptPath: z.string().min(1),
          logPath: z.string().min(1),
        })
        .describe('Execution options'),
    }),
  output: () =>
    z.looseObject({
      jobId: z.string().optional(),
      name: z.string().optional(),
      type: z.string().optional(),
      status: z.string().optional().describe('RUNNABLE, RUNNING, DELETED, UNKNOWN, DRAFT, STOPPED or EDITING'),
      nodes: z.array(z.looseObject({})).optional(),
      runCondition: z
        .looseObject({
          numWorker: z.number().optional(),
          timeout: z.number().optional(),
          nrn: z.string().optional(),
          scriptPath: z.string().optional(),
          logPath: z.string().optional(),
        })
        .optional(),
      createdDate: z.string().optional(),
      updatedDate: z.string().optional(),
    }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
