/**
 * Resolves on the event loop's next turn, after the I/O that is waiting: long work (a 4 MiB answer) awaits it between
 * slices, so that other clients are served meanwhile.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
