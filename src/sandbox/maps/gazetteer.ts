/**
 * The sandbox's gazetteer: a handful of Korean places, each found when the query point lies within `radiusM`
 * metres of its `point` (the nearest such place wins). Everything else, the sea included, is "no results".
 * All coordinates are EPSG:4326 [lon, lat]. Names are written as the interior ministry publishes them; codes
 * follow the 10-digit statutory/administrative code layout and are realistic, not authoritative.
 */

export type LonLat = readonly [lon: number, lat: number];

export interface Area {
  name: string;
  center: LonLat;
}

export interface DongCode {
  id: string;
  /** L statutory; A administrative; S administrative dong named like a statutory dong of another area. */
  type: 'L' | 'A' | 'S';
  mappingId: string;
  /** eup/myeon/dong. */
  area3: Area;
  /** ri, for places inside a ri of an eup/myeon. */
  area4?: Area;
}

interface LandLot {
  /** '1' general land, '2' mountain. */
  type: '1' | '2';
  number1: string;
  number2: string;
  center: LonLat;
}

interface RoadAddress {
  road: string;
  /** Building number ("detailed address"). */
  number1: string;
  building: string;
  zipcode: string;
  /** 12 digits: 5-digit si/gun/gu code + 7-digit road number. */
  roadGroupCode: string;
  center: LonLat;
}

export interface Place {
  id: string;
  /** What a person would call the spot (English), for docs and tests. */
  label: string;
  point: LonLat;
  radiusM: number;
  area1: Area & { alias: string };
  /** Absent for Sejong-si, which has no si/gun/gu level (rule 4). */
  area2?: Area;
  legal: DongCode & { type: 'L' };
  admin: DongCode;
  /** Absent near coastlines and in new neighbourhoods (rule 1). */
  addr?: LandLot;
  roadaddr?: RoadAddress;
}

const SEOUL = { name: '서울특별시', alias: '서울', center: [126.9783882, 37.5666103] } as const;
const GYEONGGI = { name: '경기도', alias: '경기', center: [127.009, 37.275] } as const;
const BUSAN = { name: '부산광역시', alias: '부산', center: [129.075, 35.1798] } as const;
const SEJONG = { name: '세종특별자치시', alias: '세종', center: [127.289, 36.48] } as const;

const JUNG_GU = { name: '중구', center: [126.9979, 37.5638] } as const;
const GANGNAM_GU = { name: '강남구', center: [127.0473, 37.5175] } as const;
const BUNDANG_GU = { name: '성남시 분당구', center: [127.1152, 37.3826] } as const;
const HAEUNDAE_GU = { name: '해운대구', center: [129.1636, 35.163] } as const;
const YANGPYEONG_GUN = { name: '양평군', center: [127.4875, 37.4917] } as const;

const JEONGJA_DONG = {
  id: '4113510300',
  type: 'L',
  mappingId: '02135103',
  area3: { name: '정자동', center: [127.109, 37.366] },
} as const;

export const GAZETTEER: readonly Place[] = [
  {
    id: 'seoul-city-hall',
    label: 'Seoul City Hall, Jung-gu (Taepyeongno 1-ga)',
    point: [126.97843, 37.56668],
    radiusM: 500,
    area1: SEOUL,
    area2: JUNG_GU,
    legal: {
      id: '1114010300',
      type: 'L',
      mappingId: '09140103',
      area3: { name: '태평로1가', center: [126.977, 37.5675] },
    },
    admin: { id: '1114055000', type: 'A', mappingId: '09140550', area3: { name: '명동', center: [126.9857, 37.5609] } },
    addr: { type: '1', number1: '31', number2: '', center: [126.97843, 37.56668] },
    roadaddr: {
      road: '세종대로',
      number1: '110',
      building: '서울특별시청',
      zipcode: '04524',
      roadGroupCode: '111403100011',
      center: [126.97843, 37.56668],
    },
  },
  {
    id: 'gangnam-yeoksam',
    label: 'Gangnam Finance Center, Gangnam-gu Yeoksam-dong',
    point: [127.0366, 37.5],
    radiusM: 500,
    area1: SEOUL,
    area2: GANGNAM_GU,
    legal: {
      id: '1168010100',
      type: 'L',
      mappingId: '09680101',
      area3: { name: '역삼동', center: [127.0365, 37.4995] },
    },
    admin: {
      id: '1168064000',
      type: 'A',
      mappingId: '09680640',
      area3: { name: '역삼1동', center: [127.033, 37.4955] },
    },
    addr: { type: '1', number1: '737', number2: '', center: [127.0366, 37.5] },
    roadaddr: {
      road: '테헤란로',
      number1: '152',
      building: '강남파이낸스센터',
      zipcode: '06236',
      roadGroupCode: '116803122010',
      center: [127.0366, 37.5],
    },
  },
  {
    id: 'bundang-jeongja-1',
    label: 'Green Factory, Seongnam-si Bundang-gu Jeongja-dong (administrative dong Jeongja 1-dong)',
    point: [127.10522, 37.35951],
    radiusM: 400,
    area1: GYEONGGI,
    area2: BUNDANG_GU,
    legal: JEONGJA_DONG,
    admin: {
      id: '4113565000',
      type: 'A',
      mappingId: '02135650',
      area3: { name: '정자1동', center: [127.103, 37.358] },
    },
    addr: { type: '1', number1: '178', number2: '1', center: [127.10522, 37.35951] },
    roadaddr: {
      road: '불정로',
      number1: '6',
      building: '그린팩토리',
      zipcode: '13561',
      roadGroupCode: '411353180065',
      center: [127.10522, 37.35951],
    },
  },
  {
    id: 'bundang-jeongja-station',
    label: 'Jeongja station, Bundang-gu Jeongja-dong (administrative dong of the same name, type S)',
    point: [127.10834, 37.367],
    radiusM: 400,
    area1: GYEONGGI,
    area2: BUNDANG_GU,
    legal: JEONGJA_DONG,
    admin: { id: '4113562000', type: 'S', mappingId: '02135620', area3: { name: '정자동', center: [127.112, 37.37] } },
    addr: { type: '1', number1: '25', number2: '1', center: [127.10834, 37.367] },
    roadaddr: {
      road: '성남대로331번길',
      number1: '8',
      building: '킨스타워',
      zipcode: '13558',
      roadGroupCode: '411353180102',
      center: [127.10834, 37.367],
    },
  },
  {
    id: 'busan-bexco',
    label: 'BEXCO, Busan Haeundae-gu U-dong',
    point: [129.13599, 35.16902],
    radiusM: 500,
    area1: BUSAN,
    area2: HAEUNDAE_GU,
    legal: { id: '2635010500', type: 'L', mappingId: '02350105', area3: { name: '우동', center: [129.145, 35.165] } },
    admin: { id: '2635052000', type: 'A', mappingId: '02350520', area3: { name: '우2동', center: [129.138, 35.17] } },
    addr: { type: '1', number1: '1500', number2: '', center: [129.13599, 35.16902] },
    roadaddr: {
      road: 'APEC로',
      number1: '55',
      building: '벡스코',
      zipcode: '48060',
      roadGroupCode: '263503200007',
      center: [129.13599, 35.16902],
    },
  },
  {
    // Rule 1: on the beach; statutory and administrative dong resolve, land-lot and road addresses do not.
    id: 'haeundae-beach',
    label: 'Haeundae Beach, Busan Haeundae-gu Jung-dong (coast: no addr/roadaddr)',
    point: [129.1587, 35.1586],
    radiusM: 350,
    area1: BUSAN,
    area2: HAEUNDAE_GU,
    legal: { id: '2635010800', type: 'L', mappingId: '02350108', area3: { name: '중동', center: [129.17, 35.164] } },
    admin: { id: '2635055000', type: 'A', mappingId: '02350550', area3: { name: '중1동', center: [129.164, 35.161] } },
  },
  {
    // Rule 2: a ri of an eup; the admcode result carries code.type L and the ri in area4.
    id: 'yangpyeong-yanggeun-ri',
    label: 'Yangpyeong station, Yangpyeong-gun Yangpyeong-eup Yanggeun-ri',
    point: [127.49255, 37.49261],
    radiusM: 700,
    area1: GYEONGGI,
    area2: YANGPYEONG_GUN,
    legal: {
      id: '4183025021',
      type: 'L',
      mappingId: '02830250',
      area3: { name: '양평읍', center: [127.49, 37.49] },
      area4: { name: '양근리', center: [127.4905, 37.4925] },
    },
    admin: {
      id: '4183025021',
      type: 'L',
      mappingId: '02830250',
      area3: { name: '양평읍', center: [127.49, 37.49] },
      area4: { name: '양근리', center: [127.4905, 37.4925] },
    },
    addr: { type: '1', number1: '400', number2: '', center: [127.49255, 37.49261] },
    roadaddr: {
      road: '역전길',
      number1: '30',
      building: '양평역',
      zipcode: '12554',
      roadGroupCode: '418303248076',
      center: [127.49255, 37.49261],
    },
  },
  {
    // Rule 4: Sejong-si has no si/gun/gu level, so area2 is the empty area.
    id: 'sejong-government-complex',
    label: 'Government Complex Sejong, Sejong-si Eojin-dong',
    point: [127.25911, 36.50383],
    radiusM: 800,
    area1: SEJONG,
    legal: { id: '3611011000', type: 'L', mappingId: '02611110', area3: { name: '어진동', center: [127.26, 36.502] } },
    admin: { id: '3611055000', type: 'A', mappingId: '02611550', area3: { name: '도담동', center: [127.262, 36.514] } },
    addr: { type: '1', number1: '575', number2: '', center: [127.25911, 36.50383] },
    roadaddr: {
      road: '다솜2로',
      number1: '94',
      building: '정부세종청사',
      zipcode: '30116',
      roadGroupCode: '361104400131',
      center: [127.25911, 36.50383],
    },
  },
];

const EARTH_RADIUS_M = 6371008.8;

/** Great-circle distance in metres (haversine; plenty for radii of a few hundred metres). */
function distanceM(a: LonLat, b: LonLat): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The nearest place whose radius covers the point, if any. */
export function findPlace(point: LonLat, places: readonly Place[] = GAZETTEER): Place | undefined {
  let best: { place: Place; d: number } | undefined;
  for (const place of places) {
    const d = distanceM(point, place.point);
    if (d <= place.radiusM && (!best || d < best.d)) best = { place, d };
  }
  return best?.place;
}
