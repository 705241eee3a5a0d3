// Synthetic list names for the benchmarks: deterministic (seeded), shaped like list names
// (persons with typo'd akas, companies with legal forms, vessels). bench:matching and
// bench:engines build the same collection from the same seed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GIVEN = (
  'muhammad ahmad ali hassan hussein omar abdullah ibrahim yusuf khalid mahmoud mustafa said salem nasser ' +
  'abdul karim rahman tariq walid jamal faisal hamid majid samir adel bashir ziad rami fadi nabil ' +
  'sergey aleksandr dmitriy andrey vladimir nikolay igor oleg yuriy mikhail ivan pavel viktor boris ' +
  'yevgeniy anatoliy gennadiy valeriy konstantin maksim roman denis artem kirill ruslan timur ' +
  'john james robert michael william david richard joseph thomas charles daniel matthew george ' +
  'maria elena olga natalya tatyana irina svetlana anna fatima aisha zainab mariam layla nour ' +
  'jose luis carlos juan miguel jorge pedro manuel francisco antonio rafael fernando ricardo ' +
  'kim jong chol song min hyok nam ho il yong chun wei ming jian hui li hong'
).split(' ');
const SYLLABLES = (
  'ka ra ma na sa ta la ba da ga ha za fa ya wa ko ro mo no so to lo bo do go ho zo ki ri mi ni si ti li bi di gi ' +
  'ku ru mu nu su tu lu bu du gu kha sha cha zha ova eva in ov ev sky ski enko ich yan ian uk ak ar er or ur al el ' +
  'am an em en im on un abd ul din ud ad ab ib ir is as os es kov nov rov lov dov sov ez iz az oz'
).split(' ');
const ORG_WORDS = (
  'trading import export international general industrial engineering shipping logistics energy petroleum ' +
  'finance investment holding group technology electronics construction development resources marine ' +
  'global united national star eagle falcon golden silver green blue ocean desert mountain river'
).split(' ');
const LEGAL = ['LLC', 'LTD', 'JSC', 'OOO', 'CO., LTD.', 'FZE', 'S.A.', 'GMBH', 'INC.', 'LIMITED', 'COMPANY', ''];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

function word(r, min = 2, max = 4) {
  const n = min + Math.floor(r() * (max - min + 1));
  let w = '';
  for (let i = 0; i < n; i++) w += pick(r, SYLLABLES);
  return w;
}

function cap(w) {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function typo(r, name) {
  const chars = [...name];
  const i = 1 + Math.floor(r() * Math.max(1, chars.length - 2));
  const kind = r();
  if (kind < 0.33) chars.splice(i, 1);
  else if (kind < 0.66) chars.splice(i, 0, chars[i] ?? 'a');
  else [chars[i], chars[i - 1]] = [chars[i - 1], chars[i]];
  return chars.join('');
}

export function synthetic(totalNames, seed = 7) {
  const r = rng(seed);
  const entities = [];
  let names = 0;
  let n = 0;
  while (names < totalNames) {
    const kind = r();
    n++;
    let type;
    let list;
    if (kind < 0.6) {
      type = 'individual';
      const family = word(r).toUpperCase();
      const given = cap(pick(r, GIVEN));
      const middle = r() < 0.5 ? ' ' + cap(r() < 0.5 ? pick(r, GIVEN) : word(r, 2, 3)) : '';
      list = [`${family}, ${given}${middle}`];
      if (r() < 0.4) list.push(`${family}, ${cap(typo(r, given.toLowerCase()))}`);
      if (r() < 0.15) list.push(`${cap(word(r))} ${family}`);
    } else if (kind < 0.93) {
      type = 'organization';
      const brand = word(r, 2, 3).toUpperCase();
      const words = [brand];
      const extra = Math.floor(r() * 3);
      for (let i = 0; i < extra; i++) words.push(pick(r, ORG_WORDS).toUpperCase());
      const legal = pick(r, LEGAL);
      list = [`${words.join(' ')}${legal ? ' ' + legal : ''}`];
      if (r() < 0.3) list.push(`${brand} ${pick(r, ORG_WORDS).toUpperCase()}`);
    } else {
      type = 'vessel';
      list = [`${word(r, 2, 3).toUpperCase()}${r() < 0.3 ? ' ' + (1 + Math.floor(r() * 20)) : ''}`];
    }
    list = list.slice(0, totalNames - names);
    names += list.length;
    entities.push({
      listId: 'opensanctions',
      sourceId: `syn-${n}`,
      type,
      names: list.map((full, i) => ({ full, strength: i === 0 ? 'primary' : 'strong' })),
      birthDates: type === 'individual' && r() < 0.5 ? [String(1940 + Math.floor(r() * 60))] : [],
      birthPlaces: [],
      nationalities: [],
      citizenships: [],
      addresses: [],
      identifiers: [],
      programs: [],
    });
  }
  return { entities, names };
}

export function syntheticQueries(entities, count, seed = 11) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const roll = r();
    if (roll < 0.2) {
      out.push({ name: `${cap(pick(r, GIVEN))} ${cap(word(r))}` }); // most screenings match nothing
      continue;
    }
    const e = entities[Math.floor(r() * entities.length)];
    const name = e.names[0].full.replace(/^([^,]+), (.+)$/, '$2 $1');
    out.push({ name: roll < 0.6 ? name : typo(r, name), entityType: r() < 0.5 ? e.type : undefined });
  }
  return out;
}
