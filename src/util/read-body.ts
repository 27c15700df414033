import type { Readable } from 'node:stream';

export type LimitedBody = { kind: 'complete'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

export interface ReadLimitOptions {
  maxBytes: number;
  /**
   * What to do with the rest of a body over the limit: `destroy` the stream (an upstream answer we will not use),
   * or `drain` it unbuffered so that the peer can still be answered (a request to our server), destroying it
   * only once `drainLimitBytes` more have gone by.
   */
  overflow: 'destroy' | 'drain';
  drainLimitBytes?: number;
}

/** Reads a stream of at most `maxBytes`, never holding more than that. Never throws. */
export function readLimited(stream: Readable, options: ReadLimitOptions): Promise<LimitedBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // The listeners stay: an error after the result (while draining) must still have one, or it would throw.
    const settle = (result: LimitedBody) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= options.maxBytes) return void chunks.push(chunk);
      if (!settled) {
        chunks.length = 0;
        settle({ kind: 'too-large' });
        if (options.overflow === 'destroy') return void stream.destroy();
      }
      if (size > options.maxBytes + (options.drainLimitBytes ?? Infinity)) stream.destroy();
    };
    const onEnd = () => settle({ kind: 'complete', bytes: Buffer.concat(chunks, size) });
    const onAborted = () => settle({ kind: 'aborted' });
    // A body cut off before its end: `close` comes without `end`.
    const onClose = () => settle({ kind: 'aborted' });
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onAborted);
    stream.on('close', onClose);
  });
}
