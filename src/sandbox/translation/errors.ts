import type { SandboxResponse } from '../types.js';

/**
 * N2MT error codes of the simulated translation service (E3). The spec names the N2MT01..N2MT99 range but
 * not the meaning of each code; this table is the sandbox's choice and is what its answers carry.
 *
 * | code   | HTTP | meaning                                                                   |
 * |--------|------|---------------------------------------------------------------------------|
 * | N2MT01 | 400  | `source` missing or empty                                                 |
 * | N2MT02 | 400  | `source` is not `auto` or a supported language code                       |
 * | N2MT03 | 400  | `target` missing, empty or not a supported language code                  |
 * | N2MT04 | 400  | the spec rules the source -> target direction out (translation-rules.ts), |
 * |        |      | also for the language detected for `auto`                                 |
 * | N2MT05 | 400  | `text` missing (an empty text is translated to an empty text)             |
 * | N2MT06 | 400  | `glossaryKey`/`replaceInfo` given for a pair outside rule 3               |
 * | N2MT07 | 400  | unknown `glossaryKey`, or `replaceInfo` that is not valid                 |
 * | N2MT08 | 400  | `text` longer than 5000 characters, counted as translation-rules.ts says |
 * | N2MT09 | 400  | `honorific` true for a direction outside rule 4                           |
 * | N2MT99 | 400  | any other malformed request (body not an object, a field of the wrong type)|
 * | N2MT99 | 500  | internal error of the simulator                                           |
 */
export const N2MT = {
  sourceMissing: 'N2MT01',
  sourceUnsupported: 'N2MT02',
  targetInvalid: 'N2MT03',
  pairUnsupported: 'N2MT04',
  textMissing: 'N2MT05',
  glossaryPairUnsupported: 'N2MT06',
  glossaryInvalid: 'N2MT07',
  textTooLong: 'N2MT08',
  honorificUnsupported: 'N2MT09',
  other: 'N2MT99',
} as const;
export type N2mtCode = (typeof N2MT)[keyof typeof N2MT];

/** The N2MT error body: `{"errorMessage": "...", "errorCode": "N2MT01"}`. */
export function n2mtError(errorCode: N2mtCode, errorMessage: string, status = 400): SandboxResponse {
  return { status, json: { errorMessage, errorCode } };
}
