import * as z from 'zod';
import { maybeArray, maybeInteger, maybeObject, maybeString } from './answers.js';
import { pathSegment } from './fields.js';
import { defineOperation } from './types.js';

/** The spec's data-flow job states (States and transitions). */
export const JOB_STATES = [
  { state: 'RUNNABLE', meaning: 'Job execution available' },
  { state: 'RUNNING', meaning: 'Job execution in progress' },
  { state: 'DELETED', meaning: 'Job being deleted or deletion completed' },
  { state: 'UNKNOWN', meaning: 'Other' },
  { state: 'DRAFT', meaning: 'Job edit incomplete' },
  { state: 'STOPPED', meaning: 'Job being stopped' },
  { state: 'EDITING', meaning: 'Job being edited (validation required)' },
] as const;
export type JobState = (typeof JOB_STATES)[number]['state'];

const STATES = JOB_STATES.map((s) => s.state);

export const updateJobExecutionOptions = defineOperation({
  id: 'E4',
  name: 'dataflow_update_job_execution_options',
  title: 'Update job execution options',
  description:
    "Edits a data-flow job's execution options; does not run the job. Needs its nrn, scriptPath and logPath, which " +
    'no tool here reads: ask the user, never guess. The spec is silent on: edits of a RUNNING job now or at its next ' +
    'run; omitted options kept or reset.',
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
      status: maybeString().describe(`${STATES.slice(0, -1).join(', ')} or ${STATES.at(-1)}`),
      // Every node carries these four (the spec); the fields of each node type pass through as they came.
      nodes: maybeArray(
        z.looseObject({
          type: maybeString().describe('e.g. SOURCE_OBS, TRANSFORM_FILTER, TARGET_OBS'),
          id: z.unknown().optional().describe('Numeric node id'),
          name: maybeString(),
          parentNodeIds: z.unknown().optional().describe('Array of node ids'),
        }),
      ),
      runCondition: maybeObject({
        numWorker: maybeInteger(),
        timeout: maybeInteger(),
        nrn: maybeString(),
        scriptPath: maybeString(),
        logPath: maybeString(),
      }).describe("The job's options as the answer gives them: whether an omitted one was kept shows here"),
      createdDate: maybeString(),
      updatedDate: maybeString(),
    }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
