import { describe, expect, it } from 'vitest';
import { romanise, romanisedAddress } from '../../../src/mcp/app-views/reverse-geocode/romanise.js';

// Expected values: the romanised names on Korean road signs and in the Revised Romanization's own examples (written
// out by hand from those, not from the code).
describe('romanise (Revised Romanization)', () => {
  it.each([
    ['세종대로', 'Sejong-daero'],
    ['테헤란로', 'Teheran-ro'],
    ['정자동', 'Jeongja-dong'],
    ['분당구', 'Bundang-gu'],
    ['성남시', 'Seongnam-si'],
    ['경기도', 'Gyeonggi-do'],
    ['해운대구', 'Haeundae-gu'],
    ['양평읍', 'Yangpyeong-eup'],
    ['양근리', 'Yanggeun-ri'],
    ['역삼동', 'Yeoksam-dong'],
    ['중구', 'Jung-gu'],
    ['신라', 'Silla'],
    ['독립문', 'Dongnimmun'],
    ['종로', 'Jong-ro'],
    ['APEC로', 'APEC-ro'],
    ['태평로1가', 'Taepyeong-ro 1-ga'],
    ['정자1동', 'Jeongja 1-dong'],
    ['성남대로331번길', 'Seongnam-daero 331beon-gil'],
    ['성남시 분당구', 'Seongnam-si Bundang-gu'],
  ])('%s -> %s', (korean, latin) => {
    expect(romanise(korean)).toBe(latin);
  });

  it('writes an address number first, then the areas from the smallest', () => {
    expect(romanisedAddress({ regions: ['경기도', '성남시 분당구'], street: '불정로', number: '6' })).toBe(
      '6 Buljeong-ro, Seongnam-si Bundang-gu, Gyeonggi-do',
    );
    expect(
      romanisedAddress({ regions: ['경기도', '양평군'], street: '양평읍 양근리', number: '12-3', mountain: true }),
    ).toBe('San 12-3 Yangpyeong-eup Yanggeun-ri, Yangpyeong-gun, Gyeonggi-do');
  });
});
