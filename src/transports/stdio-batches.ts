import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { RequestId } from './stdio-lines.js';

interface Batch {
  waiting: Set<RequestId>;
  answers: JSONRPCMessage[];
}

/**
 * The answers of JSON-RPC batches (2025-03-26 and earlier): the answers to a batch's requests go back together, as
 * one array on one line, once each request is answered or cancelled (a cancelled request is answered by no one). A
 * batch of notifications only has no answer.
 */
export class BatchAnswers {
  readonly #byId = new Map<RequestId, Batch>();

  /** A batch arrives: its requests' answers are held until the last one. */
  open(requestIds: readonly RequestId[]): void {
    if (requestIds.length === 0) return;
    const batch: Batch = { waiting: new Set(requestIds), answers: [] };
    for (const id of requestIds) this.#byId.set(id, batch);
  }

  /**
   * An answer on its way out: `single` when it answers no batch's request (it goes out alone), `held` while its batch
   * waits for others, or the batch's answers when it was the last.
   */
  answer(
    message: JSONRPCMessage,
  ): { kind: 'single' } | { kind: 'held' } | { kind: 'complete'; answers: JSONRPCMessage[] } {
    const m = message as { id?: RequestId; method?: string };
    const batch = m.method === undefined && m.id !== undefined ? this.#byId.get(m.id) : undefined;
    if (!batch) return { kind: 'single' };
    batch.answers.push(message);
    return this.#settle(m.id!, batch) ?? { kind: 'held' };
  }

  /** A request the client cancelled: it will not be answered; the batch may be complete without it. */
  cancelled(id: RequestId): JSONRPCMessage[] | undefined {
    const batch = this.#byId.get(id);
    if (!batch) return undefined;
    const settled = this.#settle(id, batch);
    return settled && settled.answers.length > 0 ? settled.answers : undefined;
  }

  #settle(id: RequestId, batch: Batch): { kind: 'complete'; answers: JSONRPCMessage[] } | undefined {
    this.#byId.delete(id);
    batch.waiting.delete(id);
    return batch.waiting.size === 0 ? { kind: 'complete', answers: batch.answers } : undefined;
  }
}
