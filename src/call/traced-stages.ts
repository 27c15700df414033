import type { CompiledOperation } from '../catalogue/compile.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { CallFailure } from '../failures.js';
import type { Confirmer } from './confirmation.js';
import type { CallStage } from './stages.js';

/** What a stage's span may read of its call: the operation and how its user is asked (none: not asked). */
export interface StageView {
  operation?: CompiledOperation;
  confirmer?: Confirmer;
  confirmArgument?: string;
}

/** How a stage ended, as far as its span cares: a question for the client (an input request) ends the call. */
type Ended = { input?: unknown } | object | undefined;

type StageTrace = <T extends Ended>(telemetry: Telemetry, view: StageView, run: () => Promise<T>) => Promise<T>;

/**
 * Telemetry's spans on the call's stages, by the stage's name: every stage runs through `traced`, so a stage gains a
 * span here and nowhere else.
 */
const STAGE_TRACES: { readonly [S in CallStage]?: StageTrace } = {
  confirmation: traceConfirmation,
  admission: traceAdmission,
};

/** Runs one stage of a call, inside its span when telemetry is on and the stage has one. */
export function traced<T extends Ended>(
  stage: CallStage,
  telemetry: Telemetry | undefined,
  view: StageView,
  run: () => Promise<T>,
): Promise<T> {
  const trace = telemetry && STAGE_TRACES[stage];
  return trace ? trace(telemetry, view, run) : run();
}

/** The admission stage: a span while the call waits for its place, ended with a refusal's code. */
async function traceAdmission<T extends Ended>(telemetry: Telemetry, _view: StageView, admit: () => Promise<T>) {
  const waiting = telemetry.admission();
  try {
    const admitted = await admit();
    waiting.end();
    return admitted;
  } catch (error) {
    waiting.end(CallFailure.from(error).code);
    throw error;
  }
}

/**
 * The confirmation stage (a span, the confirmations asked and answered), when the operation asks for one. The confirmer
 * tells whether the user is asked within this request and whether the request brings an answer: a form (2025
 * elicitation) asks and is answered within the call; an input request (2026-07-28) asks in the first call and is
 * answered by its retry; the `confirm` argument answers, and its absence asks.
 */
async function traceConfirmation<T extends Ended>(
  telemetry: Telemetry,
  { operation, confirmer, confirmArgument }: StageView,
  confirm: () => Promise<T>,
): Promise<T> {
  if (!operation?.confirmation || !confirmer) return confirm();
  const span = telemetry.confirmation(confirmer.channel);
  const form = confirmer.asksWithinCall;
  const brought = confirmer.bringsAnswer(confirmArgument);
  try {
    const ended = await confirm();
    const asked = ended !== undefined && 'input' in ended;
    span.end(asked ? { asked: true } : { asked: form, answer: 'confirmed' });
    return ended;
  } catch (error) {
    const answered = (form || brought) && CallFailure.from(error).code === 'not_confirmed';
    span.end({ asked: form || !brought, ...(answered ? { answer: 'refused' as const } : {}) });
    throw error;
  }
}
