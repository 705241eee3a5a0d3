// Country names → ISO 3166-1 alpha-2, from the ICU region names built into every
// JavaScript engine (Intl.DisplayNames), plus the spellings callers actually type.

const NOT_ISO = new Set(['BU', 'CS', 'DD', 'DY', 'FX', 'HV', 'NH', 'NT', 'RH', 'SU', 'TP', 'UK', 'UN', 'VD', 'YD', 'YU', 'ZR', 'EU', 'EZ', 'QO', 'XA', 'XB', 'ZZ', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA', 'CQ', 'AN']);

const ALIASES: Record<string, string> = {
  'russian federation': 'RU', 'iran islamic republic of': 'IR', 'islamic republic of iran': 'IR', dprk: 'KP',
  'democratic peoples republic of korea': 'KP', 'korea north': 'KP', 'republic of korea': 'KR', 'korea south': 'KR',
  'korea republic of': 'KR', 'syrian arab republic': 'SY', uk: 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB',
  usa: 'US', 'united states of america': 'US', america: 'US', burma: 'MM', myanmar: 'MM', 'ivory coast': 'CI',
  'cote divoire': 'CI', 'viet nam': 'VN', 'lao pdr': 'LA', 'czech republic': 'CZ', palestine: 'PS', 'west bank': 'PS',
  gaza: 'PS', macedonia: 'MK', turkey: 'TR', turkiye: 'TR', 'democratic republic of the congo': 'CD', 'dr congo': 'CD',
  drc: 'CD', 'republic of the congo': 'CG', congo: 'CG', 'bosnia and herzegovina': 'BA', bosnia: 'BA', uae: 'AE',
  'hong kong': 'HK', 'hong kong sar china': 'HK', macau: 'MO', 'macao sar china': 'MO', swaziland: 'SZ', eswatini: 'SZ',
  'cape verde': 'CV', 'east timor': 'TL', 'timor leste': 'TL', vatican: 'VA', 'holy see': 'VA', 'the gambia': 'GM',
  'the bahamas': 'BS', 'st kitts and nevis': 'KN', 'saint kitts and nevis': 'KN', 'saint lucia': 'LC', 'st lucia': 'LC',
  'saint vincent and the grenadines': 'VC', 'trinidad and tobago': 'TT', 'antigua and barbuda': 'AG', 'sao tome and principe': 'ST',
  'kyrgyz republic': 'KG', 'slovak republic': 'SK', 'moldova republic of': 'MD', 'tanzania united republic of': 'TZ',
  'venezuela bolivarian republic of': 'VE', 'bolivia plurinational state of': 'BO', 'micronesia federated states of': 'FM',
  'korea': 'KR', 'libyan arab jamahiriya': 'LY', 'crimea': 'UA', 'kosovo': 'XK', 'yugoslavia': 'RS', 'serbia and montenegro': 'RS',
  'ussr': 'RU', 'soviet union': 'RU', 'zaire': 'CD',
};

function key(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

let byName: Map<string, string> | undefined;
const ISO = new Set<string>();

function table(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a < 91; a++) {
    for (let b = 65; b < 91; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_ISO.has(code)) continue;
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        name = undefined;
      }
      if (!name || name === code) continue;
      ISO.add(code);
      const k = key(name);
      if (!byName.has(k)) byName.set(k, code);
      // "Congo - Kinshasa", "Myanmar (Burma)": also index the part before the qualifier
      const short = key(name.replace(/\s*[-(].*$/, ''));
      if (short && !byName.has(short)) byName.set(short, code);
    }
  }
  ISO.add('XK');
  for (const [k, v] of Object.entries(ALIASES)) byName.set(key(k), v);
  return byName;
}

/** ISO 3166-1 alpha-2 code of a code or English country name, or undefined. */
export function toCountryCode(input: string | undefined): string | undefined {
  if (!input) return undefined;
  const t = table();
  const trimmed = input.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const up = trimmed.toUpperCase();
    if (up === 'UK') return 'GB';
    if (ISO.has(up)) return up;
  }
  return t.get(key(trimmed));
}
