import type { LanguageCode } from '../../catalogue/translation-rules.js';

/**
 * The sandbox's phrasebook: a few common sentences in every supported language. A sentence found here is
 * translated for real; anything else is returned untranslated, marked as such (see translate.ts).
 *
 * `text` is the plain form; `polite` holds the honorific form of the Korean and Japanese sentence (used when
 * `honorific` is true and the direction supports it). Both forms are recognised as input, and so are `aliases`.
 */
export interface Phrase {
  id: string;
  text: Record<LanguageCode, string>;
  polite: { ko: string; ja: string };
  aliases?: Partial<Record<LanguageCode, readonly string[]>>;
}

const PHRASEBOOK: readonly Phrase[] = [
  {
    id: 'hello',
    text: {
      ko: '안녕.',
      en: 'Hello.',
      ja: 'こんにちは。',
      'zh-CN': '你好。',
      'zh-TW': '你好。',
      vi: 'Xin chào.',
      th: 'สวัสดี',
      id: 'Halo.',
      fr: 'Bonjour.',
      es: 'Hola.',
      ru: 'Здравствуйте.',
      de: 'Hallo.',
      it: 'Ciao.',
    },
    polite: { ko: '안녕하세요.', ja: 'こんにちは。' },
    aliases: { en: ['Hi.'], ru: ['Привет.'] },
  },
  {
    id: 'thank-you',
    text: {
      ko: '고마워.',
      en: 'Thank you.',
      ja: 'ありがとう。',
      'zh-CN': '谢谢。',
      'zh-TW': '謝謝。',
      vi: 'Cảm ơn.',
      th: 'ขอบคุณ',
      id: 'Terima kasih.',
      fr: 'Merci.',
      es: 'Gracias.',
      ru: 'Спасибо.',
      de: 'Danke.',
      it: 'Grazie.',
    },
    polite: { ko: '감사합니다.', ja: 'ありがとうございます。' },
    aliases: { en: ['Thanks.'], ko: ['고맙습니다.'] },
  },
  {
    id: 'good-morning',
    text: {
      ko: '좋은 아침.',
      en: 'Good morning.',
      ja: 'おはよう。',
      'zh-CN': '早上好。',
      'zh-TW': '早安。',
      vi: 'Chào buổi sáng.',
      th: 'อรุณสวัสดิ์',
      id: 'Selamat pagi.',
      fr: 'Bonjour.',
      es: 'Buenos días.',
      ru: 'Доброе утро.',
      de: 'Guten Morgen.',
      it: 'Buongiorno.',
    },
    polite: { ko: '좋은 아침입니다.', ja: 'おはようございます。' },
  },
  {
    id: 'nice-to-meet-you',
    text: {
      ko: '만나서 반가워.',
      en: 'Nice to meet you.',
      ja: '会えてうれしい。',
      'zh-CN': '很高兴认识你。',
      'zh-TW': '很高興認識你。',
      vi: 'Rất vui được gặp bạn.',
      th: 'ยินดีที่ได้รู้จัก',
      id: 'Senang bertemu dengan Anda.',
      fr: 'Enchanté.',
      es: 'Mucho gusto.',
      ru: 'Приятно познакомиться.',
      de: 'Freut mich, Sie kennenzulernen.',
      it: 'Piacere di conoscerti.',
    },
    polite: { ko: '만나서 반갑습니다.', ja: 'お会いできてうれしいです。' },
    aliases: { ja: ['はじめまして。'] },
  },
  {
    id: 'where-is-the-station',
    text: {
      ko: '역은 어디에 있어?',
      en: 'Where is the station?',
      ja: '駅はどこ？',
      'zh-CN': '车站在哪里？',
      'zh-TW': '車站在哪裡？',
      vi: 'Nhà ga ở đâu?',
      th: 'สถานีอยู่ที่ไหน',
      id: 'Di mana stasiunnya?',
      fr: 'Où est la gare ?',
      es: '¿Dónde está la estación?',
      ru: 'Где вокзал?',
      de: 'Wo ist der Bahnhof?',
      it: "Dov'è la stazione?",
    },
    polite: { ko: '역은 어디에 있나요?', ja: '駅はどこですか？' },
  },
  {
    id: 'how-much',
    text: {
      ko: '이거 얼마야?',
      en: 'How much is this?',
      ja: 'これはいくら？',
      'zh-CN': '这个多少钱？',
      'zh-TW': '這個多少錢？',
      vi: 'Cái này bao nhiêu tiền?',
      th: 'อันนี้ราคาเท่าไหร่',
      id: 'Berapa harganya?',
      fr: 'Combien ça coûte ?',
      es: '¿Cuánto cuesta esto?',
      ru: 'Сколько это стоит?',
      de: 'Wie viel kostet das?',
      it: 'Quanto costa questo?',
    },
    polite: { ko: '이거 얼마예요?', ja: 'これはいくらですか？' },
  },
  {
    id: 'send-meeting-materials',
    text: {
      ko: '회의 자료를 보내 줘.',
      en: 'Please send me the meeting materials.',
      ja: '会議の資料を送って。',
      'zh-CN': '请把会议资料发给我。',
      'zh-TW': '請把會議資料發給我。',
      vi: 'Vui lòng gửi cho tôi tài liệu cuộc họp.',
      th: 'กรุณาส่งเอกสารการประชุมให้ฉัน',
      id: 'Tolong kirimkan materi rapat kepada saya.',
      fr: "Veuillez m'envoyer les documents de la réunion.",
      es: 'Por favor, envíeme los materiales de la reunión.',
      ru: 'Пожалуйста, пришлите мне материалы встречи.',
      de: 'Bitte schicken Sie mir die Besprechungsunterlagen.',
      it: 'Per favore, inviami i materiali della riunione.',
    },
    polite: { ko: '회의 자료를 보내 주세요.', ja: '会議の資料を送ってください。' },
  },
  {
    id: 'meeting-at-three',
    text: {
      ko: '회의는 오후 3시에 시작해.',
      en: 'The meeting starts at 3 p.m.',
      ja: '会議は午後3時に始まる。',
      'zh-CN': '会议下午三点开始。',
      'zh-TW': '會議下午三點開始。',
      vi: 'Cuộc họp bắt đầu lúc 3 giờ chiều.',
      th: 'การประชุมเริ่มเวลาบ่ายสามโมง',
      id: 'Rapat dimulai pukul 3 sore.',
      fr: 'La réunion commence à 15 heures.',
      es: 'La reunión empieza a las 3 de la tarde.',
      ru: 'Встреча начинается в 3 часа дня.',
      de: 'Die Besprechung beginnt um 15 Uhr.',
      it: 'La riunione inizia alle 15.',
    },
    polite: { ko: '회의는 오후 3시에 시작합니다.', ja: '会議は午後3時に始まります。' },
  },
];

/**
 * Key for matching a sentence: NFKC (full-width punctuation becomes ASCII), lower case, apostrophes unified,
 * whitespace collapsed, sentence punctuation (and the spaces before it) dropped.
 */
function phraseKey(sentence: string): string {
  return sentence
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[.!?。¡¿,、，]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function formsOf(phrase: Phrase, language: LanguageCode): string[] {
  const forms = [phrase.text[language], ...(phrase.aliases?.[language] ?? [])];
  if (language === 'ko' || language === 'ja') forms.push(phrase.polite[language]);
  return forms;
}

/** The phrase whose `language` form (plain, polite or alias) matches `sentence`, if any. First entry wins. */
export function findPhrase(sentence: string, language: LanguageCode): Phrase | undefined {
  const key = phraseKey(sentence);
  if (key === '') return undefined;
  return PHRASEBOOK.find((phrase) => formsOf(phrase, language).some((form) => phraseKey(form) === key));
}

/** Every sentence the phrasebook knows, in English: what an answer of the sandbox says it can translate. */
export const PHRASEBOOK_SENTENCES: readonly string[] = PHRASEBOOK.map((phrase) => phrase.text.en);

/** The phrase in `language`, polite when asked and the language has a polite form. */
export function renderPhrase(phrase: Phrase, language: LanguageCode, honorific: boolean): string {
  if (honorific && (language === 'ko' || language === 'ja')) return phrase.polite[language];
  return phrase.text[language];
}
