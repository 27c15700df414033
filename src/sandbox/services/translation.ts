import { translateText } from '../../catalogue/translation.js';
import { routeOf } from '../route-of.js';
import type { Route, SandboxRequest, SandboxResponse } from '../types.js';
import { N2MT, n2mtError } from '../translation/errors.js';
import { parseTranslationRequest } from '../translation/request.js';
import { simulatedWords, translate } from '../translation/translate.js';
import { SIMULATED_KEY } from '../../catalogue/simulated.js';

/** Neutral stand-in for the upstream proxy's service name in the response envelope. */
const SERVICE_NAME = 'svc.nmt.proxy';

/**
 * E3, text translation: `POST /nmt/v1/translation` with the upper-case application key pair (checked by
 * http-server.ts before the handler runs). JSON or form bodies; N2MT errors (code table in translation/errors.ts).
 * Stateless: the phrasebook and glossaries are constant data.
 */
export function translationRoutes(): Route[] {
  return [routeOf(translateText, handleTranslation)];
}

function handleTranslation(req: SandboxRequest): SandboxResponse {
  try {
    const parsed = parseTranslationRequest(req.body);
    if (!parsed.ok) return parsed.response;
    const job = parsed.value;
    const translation = translate(job.text, job);
    return {
      status: 200,
      json: {
        message: {
          '@type': 'response',
          '@service': SERVICE_NAME,
          '@version': '1.0.0',
          result: {
            srcLangType: job.source,
            tarLangType: job.target,
            translatedText: translation.text,
            // Not a field of the spec: the data says, not only the words, that no translation engine wrote this.
            [SIMULATED_KEY]: simulatedWords(translation),
          },
        },
      },
    };
  } catch (error) {
    return n2mtError(N2MT.other, `internal error of the sandbox: ${(error as Error).message}`, 500);
  }
}
