export { startSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';
export { SANDBOX_CREDENTIALS } from './credentials.js';
export type { Fault, FaultController } from './faults.js';
export type { RecordedRequest, RequestLog } from './request-log.js';
export type { Route, SandboxCredentials, SandboxRequest, SandboxResponse } from './types.js';
