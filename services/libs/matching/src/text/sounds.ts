// Sound classes of a word's first consonant (v2): short words whose first consonants sound
// nothing alike (Kalam, Salam) are different names, not typos of each other.

const SOUND_CLASS: Record<string, string> = {
  b: 'p',
  p: 'p',
  f: 'p',
  v: 'p',
  w: 'p',
  c: 'k',
  k: 'k',
  q: 'k',
  g: 'k',
  d: 't',
  t: 't',
  s: 's',
  z: 's',
  x: 's',
  j: 'j',
  y: 'j',
  l: 'l',
  r: 'l',
  m: 'm',
  n: 'm',
  h: 'h',
};

/** Both words start with a consonant, and the two consonants sound nothing alike (j and k are close: Jamal, Gamal). */
export function consonantClash(a: string, b: string): boolean {
  const x = SOUND_CLASS[a.charAt(0)];
  const y = SOUND_CLASS[b.charAt(0)];
  return x !== undefined && y !== undefined && x !== y && !(x === 'j' && y === 'k') && !(x === 'k' && y === 'j');
}
