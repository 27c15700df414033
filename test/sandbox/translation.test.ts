import { describe, expect, it } from 'vitest';
import { translationRoutes } from '../../src/sandbox/services/translation.js';
import type { SandboxRequest, SandboxResponse } from '../../src/sandbox/types.js';

const ctx = { now: () => Date.UTC(2025, 0, 1) };

async function translate(body: unknown): Promise<SandboxResponse> {
  const [route] = translationRoutes();
  const req: SandboxRequest = {
    method: 'POST',
    rawUri: '/nmt/v1/translation',
    params: {},
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    body,
  };
  return route!.handle(req, ctx);
}

interface Ok {
  message: {
    '@type': string;
    '@service': string;
    '@version': string;
    result: { srcLangType: string; tarLangType: string; translatedText: string; simulated: string };
  };
}
async function ok(body: unknown) {
  const res = await translate(body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json as Ok).message.result;
}
async function error(body: unknown) {
  const res = await translate(body);
  expect(res.status).toBe(400);
  const json = res.json as { errorCode: string; errorMessage: string };
  expect(Object.keys(json).sort()).toEqual(['errorCode', 'errorMessage']);
  return json;
}

/** What a translation entirely from the phrasebook says of itself: simulated, and nothing left untranslated. */
const PHRASEBOOK_ONLY = expect.stringMatching(
  /^Simulated by the sandbox, not a translation engine: only the 8 sentences of its phrasebook are translated \(Hello\. Thank you\. .*\)\.$/,
);

describe('sandbox E3 translation: route and envelope', () => {
  it('serves POST /nmt/v1/translation with the upper-case application key pair', () => {
    const routes = translationRoutes();
    expect(routes.map((r) => [r.method, r.pattern, r.auth])).toEqual([
      ['POST', '/nmt/v1/translation', 'app-key-upper'],
    ]);
  });

  it('answers in the message/result envelope with a neutral service name', async () => {
    const res = await translate({ source: 'en', target: 'ko', text: 'Where is the station?' });
    expect(res.json).toEqual({
      message: {
        '@type': 'response',
        '@service': 'svc.nmt.proxy',
        '@version': '1.0.0',
        result: {
          srcLangType: 'en',
          tarLangType: 'ko',
          translatedText: '역은 어디에 있어?',
          simulated: PHRASEBOOK_ONLY,
        },
      },
    });
  });
});

describe('sandbox E3 translation: phrasebook and pseudo-translation', () => {
  it('translates phrasebook sentences, sentence by sentence', async () => {
    expect((await ok({ source: 'en', target: 'ja', text: 'Good morning. Thank you!' })).translatedText).toBe(
      'おはよう。ありがとう。',
    );
    expect((await ok({ source: 'ko', target: 'en', text: '회의 자료를 보내 주세요.' })).translatedText).toBe(
      'Please send me the meeting materials.',
    );
    expect((await ok({ source: 'en', target: 'zh-CN', text: 'The meeting starts at 3 p.m.' })).translatedText).toBe(
      '会议下午三点开始。',
    );
    expect((await ok({ source: 'en', target: 'fr', text: 'where is the station' })).translatedText).toBe(
      'Où est la gare ?',
    );
  });

  // Issue 18: the mark says in words that the text is not a translation (a language tag read like one).
  it('marks text it cannot translate as not translated, once per run of unknown sentences', async () => {
    expect((await ok({ source: 'en', target: 'ko', text: 'The quarterly report is late.' })).translatedText).toBe(
      '[not translated by the sandbox: no phrasebook entry] The quarterly report is late.',
    );
    expect(
      (await ok({ source: 'en', target: 'ko', text: 'Hello. The report is late. It needs review. Thank you.' }))
        .translatedText,
    ).toBe('안녕. [not translated by the sandbox: no phrasebook entry] The report is late. It needs review. 고마워.');
  });

  // Issue 26: sentences are joined as the target language writes them, not as the source did.
  it.each([
    ['ja', 'en', 'こんにちは。ありがとう。', 'Hello. Thank you.'],
    ['en', 'ja', 'Hello. Thank you.', 'こんにちは。ありがとう。'],
    ['zh-CN', 'ko', '你好。谢谢。', '안녕. 고마워.'],
    ['ko', 'zh-CN', '안녕. 고마워.', '你好。谢谢。'],
    ['en', 'ja', 'Hello.\nThank you.', 'こんにちは。\nありがとう。'],
    [
      'ja',
      'en',
      'こんにちは。今日は晴れ。',
      'Hello. [not translated by the sandbox: no phrasebook entry] 今日は晴れ。',
    ],
    [
      'en',
      'ja',
      'Hello. The report is late.',
      'こんにちは。 [not translated by the sandbox: no phrasebook entry] The report is late.',
    ],
  ])('%s -> %s joins %j as %j', async (source, target, text, expected) => {
    expect((await ok({ source, target, text })).translatedText).toBe(expected);
  });

  it('is deterministic', async () => {
    const body = { source: 'auto', target: 'ja', text: 'Nice to meet you. We ship on Friday.' };
    expect(await ok(body)).toEqual(await ok(body));
  });
});

describe('sandbox E3 translation: source auto', () => {
  it.each([
    ['안녕하세요.', 'en', 'ko', 'Hello.'],
    ['駅はどこですか？', 'ko', 'ja', '역은 어디에 있어?'],
    ['谢谢。', 'en', 'zh-CN', 'Thank you.'],
    ['สวัสดี', 'en', 'th', 'Hello.'],
    ['Спасибо.', 'ko', 'ru', '고마워.'],
    ['Good morning.', 'ko', 'en', '좋은 아침.'],
    ['Merci.', 'ko', 'fr', '고마워.'],
    ['The weather is nice.', 'ko', 'en', '[not translated by the sandbox: no phrasebook entry] The weather is nice.'],
  ])('detects %s as the source', async (text, target, detected, translated) => {
    const result = await ok({ source: 'auto', target, text });
    expect(result.srcLangType).toBe(detected);
    expect(result.tarLangType).toBe(target);
    expect(result.translatedText).toBe(translated);
  });

  it('refuses when the detected language is the target, or the spec rules its direction out', async () => {
    expect((await error({ source: 'auto', target: 'ko', text: '안녕하세요' })).errorCode).toBe('N2MT04');
    expect((await error({ source: 'auto', target: 'es', text: 'こんにちは' })).errorCode).toBe('N2MT04');
  });
});

describe('sandbox E3 translation: simulated, like its completions (issue 33, item 10)', () => {
  it('says in simulated that it is no translation engine, and how many sentences it left untranslated', async () => {
    const partly = await ok({
      source: 'en',
      target: 'ko',
      text: 'Hello. The report is late. It needs review. Thank you.',
    });
    expect(partly.translatedText).toBe(
      '안녕. [not translated by the sandbox: no phrasebook entry] The report is late. It needs review. 고마워.',
    );
    expect(partly.simulated).toMatch(/^Simulated by the sandbox, not a translation engine: only the 8 sentences/);
    expect(partly.simulated).toMatch(
      /; 2 sentences of this text are not in it, returned as written after \[not translated by the sandbox: no phrasebook entry\]\.$/,
    );
    const one = await ok({ source: 'en', target: 'ko', text: 'The report is late.' });
    expect(one.simulated).toMatch(/; 1 sentence of this text is not in it/);
  });
});

describe('sandbox E3 translation: directions', () => {
  it('accepts the reverse of every listed pair', async () => {
    // The table lists ko->ja, en->ko and zh-CN->zh-TW; their reverses work too.
    expect(await ok({ source: 'ja', target: 'ko', text: 'ありがとうございます。' })).toEqual({
      srcLangType: 'ja',
      tarLangType: 'ko',
      translatedText: '고마워.',
      simulated: PHRASEBOOK_ONLY,
    });
    expect((await ok({ source: 'zh-TW', target: 'zh-CN', text: '謝謝。' })).translatedText).toBe('谢谢。');
    expect((await ok({ source: 'de', target: 'ko', text: 'Danke.' })).translatedText).toBe('고마워.');
    expect((await ok({ source: 'it', target: 'ko', text: 'Grazie.' })).translatedText).toBe('고마워.');
  });

  it('refuses a direction the spec rules out: a source of the table, a target neither its row nor rules 3-4 give (N2MT04)', async () => {
    const e = await error({ source: 'en', target: 'it', text: 'Hello.' });
    expect(e.errorCode).toBe('N2MT04');
    expect(e.errorMessage).toContain('en -> it');
    expect((await error({ source: 'ja', target: 'ru', text: 'ありがとう。' })).errorCode).toBe('N2MT04');
    expect((await error({ source: 'zh-CN', target: 'vi', text: '谢谢。' })).errorCode).toBe('N2MT04');
    expect((await error({ source: 'ko', target: 'ko', text: '안녕' })).errorCode).toBe('N2MT04');
  });

  it('translates directions the spec does not document (sources the table does not show)', async () => {
    expect((await ok({ source: 'fr', target: 'de', text: 'Merci.' })).translatedText).toBe('Danke.');
    expect((await ok({ source: 'vi', target: 'th', text: 'Xin chào.' })).tarLangType).toBe('th');
  });
});

describe('sandbox E3 translation: request checks', () => {
  it.each([
    [{ target: 'ko', text: 'Hello.' }, 'N2MT01'],
    [{ source: '', target: 'ko', text: 'Hello.' }, 'N2MT01'],
    [{ source: 'xx', target: 'ko', text: 'Hello.' }, 'N2MT02'],
    [{ source: 'en', text: 'Hello.' }, 'N2MT03'],
    [{ source: 'en', target: 'auto', text: 'Hello.' }, 'N2MT03'],
    [{ source: 'en', target: 'ko' }, 'N2MT05'],
    [{ source: 'en', target: 'ko', text: 42 }, 'N2MT99'],
    [{ source: 'en', target: 'ko', text: 'Hello.', honorific: 'yes' }, 'N2MT99'],
    [['en', 'ko', 'Hello.'], 'N2MT99'],
  ])('%j -> %s', async (body, code) => {
    expect((await error(body)).errorCode).toBe(code);
  });

  it('treats an empty body as a missing source', async () => {
    expect((await error(undefined)).errorCode).toBe('N2MT01');
  });

  it('accepts form fields, honorific arriving as the string true/false', async () => {
    const form = { source: 'en', target: 'ko', text: 'Thank you.', honorific: 'true' };
    expect((await ok(form)).translatedText).toBe('감사합니다.');
    expect((await ok({ ...form, honorific: 'false' })).translatedText).toBe('고마워.');
  });
});

describe('sandbox E3 translation: what the spec does not rule out (issue 26)', () => {
  it('translates an empty text to an empty text: the spec sets no minimum length', async () => {
    expect(await ok({ source: 'en', target: 'ko', text: '' })).toEqual({
      srcLangType: 'en',
      tarLangType: 'ko',
      translatedText: '',
      simulated: PHRASEBOOK_ONLY,
    });
  });

  it('takes an empty glossaryKey as no glossary', async () => {
    expect((await ok({ source: 'en', target: 'ko', text: 'Hello.', glossaryKey: '' })).translatedText).toBe('안녕.');
  });
});

describe('sandbox E3 translation: honorific (rule 4)', () => {
  it('uses polite Korean and Japanese forms when asked', async () => {
    const ko = (await ok({ source: 'en', target: 'ko', text: 'Where is the station?', honorific: true }))
      .translatedText;
    expect(ko).toBe('역은 어디에 있나요?');
    expect(ko).toMatch(/(요|습니다|니다)[.?!]?$/u);
    expect(
      (await ok({ source: 'zh-CN', target: 'ko', text: '会议下午三点开始。', honorific: true })).translatedText,
    ).toBe('회의는 오후 3시에 시작합니다.');
    expect((await ok({ source: 'ko', target: 'ja', text: '고마워.', honorific: true })).translatedText).toBe(
      'ありがとうございます。',
    );
    expect(
      (await ok({ source: 'en', target: 'ja', text: 'Please send me the meeting materials.', honorific: true }))
        .translatedText,
    ).toBe('会議の資料を送ってください。');
  });

  it('uses the plain forms by default', async () => {
    expect((await ok({ source: 'en', target: 'ko', text: 'Thank you.' })).translatedText).toBe('고마워.');
  });

  it('refuses honorific on a direction outside rule 4 (N2MT09), but not honorific false', async () => {
    expect((await error({ source: 'ko', target: 'en', text: '안녕', honorific: true })).errorCode).toBe('N2MT09');
    expect((await error({ source: 'ja', target: 'zh-CN', text: 'ありがとう', honorific: true })).errorCode).toBe(
      'N2MT09',
    );
    expect((await error({ source: 'auto', target: 'en', text: '안녕', honorific: true })).errorCode).toBe('N2MT09');
    expect((await ok({ source: 'ko', target: 'en', text: '안녕.', honorific: false })).translatedText).toBe('Hello.');
  });
});

describe('sandbox E3 translation: untranslated spans (rule 5) and the 5000-character limit', () => {
  it('keeps span text verbatim and does not count it: 5100 characters with 200 in spans pass', async () => {
    const plain = 'lorem ipsum dolor sit amet. '.repeat(175); // 4900 characters
    const spanText = 'Do not translate me! '.repeat(10); // 210 characters ...
    const kept = spanText.slice(0, 200); // ... cut to 200
    const text = `${plain}<span translate="no">${kept.slice(0, 100)}</span> <span class="notranslate">${kept.slice(100)}</span>`;
    expect([...plain].length + [...kept].length).toBe(5100);
    const result = await ok({ source: 'en', target: 'ko', text });
    expect(result.translatedText).toContain(`<span translate="no">${kept.slice(0, 100)}</span>`);
    expect(result.translatedText).toContain(`<span class="notranslate">${kept.slice(100)}</span>`);
  });

  it('refuses more than 5000 counted characters (N2MT08)', async () => {
    const e = await error({ source: 'en', target: 'ko', text: `${'a'.repeat(5001)}<span translate="no">b</span>` });
    expect(e.errorCode).toBe('N2MT08');
    expect(e.errorMessage).toContain('5001');
    expect((await ok({ source: 'en', target: 'ko', text: 'a'.repeat(5000) })).translatedText).toContain(
      '[not translated by the sandbox: no phrasebook entry]',
    );
  });

  it('counts spans on pairs that do not support them (en -> es)', async () => {
    const text = `${'a'.repeat(4900)}<span translate="no">${'b'.repeat(200)}</span>`;
    const e = await error({ source: 'en', target: 'es', text });
    expect(e.errorCode).toBe('N2MT08');
    expect(e.errorMessage).toContain('5128');
    expect((await ok({ source: 'en', target: 'ja', text })).translatedText).toContain('b'.repeat(200));
  });

  it('translates the sentences around a span and leaves the span alone', async () => {
    const text = 'Hello. <span translate="no">Hello.</span> Thank you.';
    expect((await ok({ source: 'en', target: 'ko', text })).translatedText).toBe(
      '안녕. <span translate="no">Hello.</span> 고마워.',
    );
  });
});

describe('sandbox E3 translation: glossaryKey and replaceInfo (rules 1-3)', () => {
  it('replaces the terms of a known glossary', async () => {
    const text = 'Sandbox Cloud stores files in object storage behind an API gateway.';
    const result = await ok({ source: 'en', target: 'ja', text, glossaryKey: 'sandbox-glossary' });
    expect(result.translatedText).toBe(
      '[not translated by the sandbox: no phrasebook entry] サンドボックスクラウド stores files in オブジェクトストレージ behind an APIゲートウェイ.',
    );
    const reverse = await ok({
      source: 'ko',
      target: 'en',
      text: '샌드박스 클라우드를 씁니다.',
      glossaryKey: 'sandbox-glossary',
    });
    expect(reverse.translatedText).toBe('[not translated by the sandbox: no phrasebook entry] Sandbox Cloud를 씁니다.');
  });

  it('does not touch glossary terms inside untranslated spans', async () => {
    const text = 'Sandbox Cloud and <span translate="no">Sandbox Cloud</span>.';
    expect((await ok({ source: 'en', target: 'zh-CN', text, glossaryKey: 'sandbox-glossary' })).translatedText).toBe(
      '[not translated by the sandbox: no phrasebook entry] 沙盒云 and <span translate="no">Sandbox Cloud</span>.',
    );
  });

  it('refuses an unknown glossaryKey (N2MT07) and glossaries on pairs outside rule 3 (N2MT06)', async () => {
    expect((await error({ source: 'en', target: 'ja', text: 'Hi.', glossaryKey: 'nope' })).errorCode).toBe('N2MT07');
    expect((await error({ source: 'en', target: 'de', text: 'Hi.', glossaryKey: 'sandbox-glossary' })).errorCode).toBe(
      'N2MT06',
    );
    expect((await error({ source: 'ko', target: 'ru', text: '안녕', replaceInfo: '[]' })).errorCode).toBe('N2MT06');
  });

  it('lets replaceInfo win over glossaryKey', async () => {
    const text = 'Sandbox Cloud has an API gateway.';
    const replaceInfo = JSON.stringify([{ str: 'Sandbox Cloud', replaceStr: 'SBC' }, { str: 'gateway' }]);
    const result = await ok({ source: 'en', target: 'ja', text, glossaryKey: 'sandbox-glossary', replaceInfo });
    expect(result.translatedText).toBe('[not translated by the sandbox: no phrasebook entry] SBC has an API gateway.');
    // The glossary is not used, so an unknown key does not matter either.
    expect((await ok({ source: 'en', target: 'ja', text, glossaryKey: 'nope', replaceInfo })).translatedText).toBe(
      '[not translated by the sandbox: no phrasebook entry] SBC has an API gateway.',
    );
  });

  it('refuses replaceInfo it cannot read (N2MT07)', async () => {
    expect((await error({ source: 'en', target: 'ja', text: 'Hi.', replaceInfo: 'not json' })).errorCode).toBe(
      'N2MT07',
    );
    expect(
      (await error({ source: 'en', target: 'ja', text: 'Hi.', replaceInfo: '[{"replaceStr":"x"}]' })).errorCode,
    ).toBe('N2MT07');
  });

  it('does not make glossary terms polite (rule 2)', async () => {
    const result = await ok({
      source: 'en',
      target: 'ko',
      text: 'Thank you. We use the API gateway.',
      honorific: true,
      glossaryKey: 'sandbox-glossary',
    });
    expect(result.translatedText).toBe(
      '감사합니다. [not translated by the sandbox: no phrasebook entry] We use the API 게이트웨이.',
    );
  });
});
