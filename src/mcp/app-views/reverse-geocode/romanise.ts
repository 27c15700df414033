/**
 * Korean place names in the Latin alphabet, by the Revised Romanization of Korean (the Ministry of Culture's rules of
 * 2000): the letters of each jamo, the sound changes at syllable joins that change spelling most often (a final
 * consonant carried over to a following ㅇ, nasalisation before ㄴ/ㅁ, ㄹ after ㄴ or ㄹ, ㄴ/ㄹ after ㅇ/ㅁ), and a
 * hyphen before the unit of an administrative area or road (-do, -si, -gu, -dong, -ro, -gil, ...). Not the official
 * English names (서울특별시 is "Seoul-teukbyeolsi" here, "Seoul" there), and not every sound change: a help for
 * reading and for typing an address abroad, which the view says. Pure.
 */

const INITIALS = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const VOWELS = [
  'a',
  'ae',
  'ya',
  'yae',
  'eo',
  'e',
  'yeo',
  'ye',
  'o',
  'wa',
  'wae',
  'oe',
  'yo',
  'u',
  'wo',
  'we',
  'wi',
  'yu',
  'eu',
  'ui',
  'i',
];
/** Each final (index 1..27) as it sounds at the end of a syllable. */
const FINALS = [
  '',
  'k',
  'k',
  'k',
  'n',
  'n',
  'n',
  't',
  'l',
  'k',
  'm',
  'l',
  'l',
  'l',
  'p',
  'l',
  'm',
  'p',
  'p',
  't',
  't',
  'ng',
  't',
  't',
  'k',
  't',
  'p',
  't',
];
/** A final carried over to a following ㅇ: the initial it becomes (ㅇ itself stays: "ng" + vowel). */
const CARRIED = [
  '',
  'g',
  'kk',
  'gs',
  'n',
  'nj',
  'nh',
  'd',
  'r',
  'lg',
  'lm',
  'lb',
  'ls',
  'lt',
  'lp',
  'lh',
  'm',
  'b',
  'bs',
  's',
  'ss',
  'ng',
  'j',
  'ch',
  'k',
  't',
  'p',
  'h',
];

const FIRST = 0xac00;
const LAST = 0xd7a3;

interface Syllable {
  initial: number;
  vowel: number;
  final: number;
}

function syllable(char: string): Syllable | undefined {
  const code = char.codePointAt(0)!;
  if (code < FIRST || code > LAST) return undefined;
  const n = code - FIRST;
  return { initial: Math.floor(n / 588), vowel: Math.floor((n % 588) / 28), final: n % 28 };
}

const L = 5; // ㄹ as an initial
const N = 2; // ㄴ as an initial
const M = 6; // ㅁ as an initial
const SILENT = 11; // ㅇ as an initial

/** One run of Hangul syllables, with the joins between them. */
function romaniseRun(run: Syllable[]): string {
  let out = '';
  for (let i = 0; i < run.length; i++) {
    const s = run[i]!;
    const next = run[i + 1];
    const previous = run[i - 1];
    let initial = INITIALS[s.initial]!;
    if (previous) {
      const before = FINALS[previous.final]!;
      if (s.initial === SILENT && previous.final !== 0 && previous.final !== 21) initial = '';
      else if (s.initial === L && (before === 'l' || before === 'n')) initial = 'l';
      else if (s.initial === L && (before === 'ng' || before === 'm' || before === 'k' || before === 'p'))
        initial = 'n';
    } else if (s.initial === L) initial = 'r';
    let final = FINALS[s.final]!;
    if (next && s.final !== 0) {
      const after = next.initial;
      if (after === SILENT && s.final !== 21) final = CARRIED[s.final]!;
      else if (after === L && (final === 'n' || final === 'l')) final = 'l';
      else if (after === N || after === M || after === L) {
        if (final === 'k') final = 'ng';
        else if (final === 't') final = 'n';
        else if (final === 'p') final = 'm';
      }
    }
    out += initial + VOWELS[s.vowel]! + final;
  }
  return out;
}

/** The units that follow a name, longest first; written after a hyphen. */
const UNITS = [
  '특별자치시',
  '특별자치도',
  '특별시',
  '광역시',
  '대로',
  '번길',
  '도',
  '시',
  '군',
  '구',
  '읍',
  '면',
  '동',
  '리',
  '가',
  '로',
  '길',
];

/**
 * One word (no spaces): name and unit apart, numbers after a space, the unit after a number hyphened: 분당구 ->
 * Bundang-gu, 성남대로331번길 -> Seongnam-daero 331beon-gil, 태평로1가 -> Taepyeong-ro 1-ga, 정자1동 -> Jeongja 1-dong.
 */
function romaniseWord(word: string): string {
  let out = '';
  let afterNumber = false;
  for (const piece of word.match(/\d+|\D+/g) ?? []) {
    if (/^\d/.test(piece)) {
      out += (out ? ' ' : '') + piece;
      afterNumber = true;
      continue;
    }
    if (afterNumber) {
      out += piece === '번길' ? 'beon-gil' : UNITS.includes(piece) ? `-${romaniseText(piece)}` : romaniseText(piece);
    } else {
      const unit = UNITS.find((u) => piece.endsWith(u) && piece.length > u.length);
      const text = unit ? `${romaniseText(piece.slice(0, -unit.length))}-${romaniseText(unit)}` : romaniseText(piece);
      out += (out ? ' ' : '') + capitalised(text);
    }
    afterNumber = false;
  }
  return out;
}

/** Hangul runs romanised, anything else kept. */
function romaniseText(text: string): string {
  let out = '';
  let run: Syllable[] = [];
  for (const char of text) {
    const s = syllable(char);
    if (s) {
      run.push(s);
      continue;
    }
    out += romaniseRun(run) + char;
    run = [];
  }
  return out + romaniseRun(run);
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A name or address, word by word (산, a mountain lot, is "san"). */
export function romanise(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => (word === '산' ? 'san' : romaniseWord(word)))
    .join(' ');
}

/** An address in the order written abroad: number and street, then the si/gun/gu and the si/do, e.g.
 * "6 Buljeong-ro, Seongnam-si Bundang-gu, Gyeonggi-do". */
export function romanisedAddress(parts: {
  regions: string[];
  street: string;
  number: string;
  mountain?: boolean;
}): string {
  const number = parts.mountain ? `San ${parts.number}` : parts.number;
  const [area1, area2] = parts.regions;
  return [
    [number, romanise(parts.street)].filter(Boolean).join(' '),
    ...(area2 ? [romanise(area2)] : []),
    ...(area1 ? [romanise(area1)] : []),
  ]
    .filter(Boolean)
    .join(', ');
}
