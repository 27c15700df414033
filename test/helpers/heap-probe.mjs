// Loaded into a server under test (NODE_OPTIONS="--import <this file>", see heap-probe.ts): on SIGUSR2 it collects
// garbage and writes to stderr the memory the JavaScript heap and the buffers outside it still hold, so that a test
// can measure a leak as growth per call of what survives a full collection, which the load does not move.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
process.on('SIGUSR2', () => {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  process.stderr.write(`heap-probe ${heapUsed + external}\n`);
});
