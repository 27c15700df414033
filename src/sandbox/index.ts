// The simulator's face: the one way into src/sandbox/ from the rest of src/ (main.ts loads it on demand).
export { startSandbox, type Sandbox } from './sandbox.js';
export { SANDBOX_CREDENTIALS } from './credentials.js';
export { sandboxConfig, startSandboxes } from './launch.js';
