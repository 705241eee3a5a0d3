// Words that are part of a name but say little about who it is. They are kept as
// tokens of their own kind with a low weight — never silently deleted — so "OAO
// Gazprom" still differs a little from "Gazprom" and an explanation can show them.

/**
 * Legal forms by family. Phrases are written as normalised tokens; the family code is
 * what two legal forms are compared on ("OAO" and "Open Joint Stock Company" are both
 * `jsc`). Sources: the forms that occur on OFAC, UN, EU and UK lists, per language.
 */
const LEGAL_FORMS: Record<string, string[]> = {
  llc: [
    'llc', 'l l c', 'limited liability company', 'limited liability co', 'limited liability partnership',
    'ooo', 'obshchestvo s ogranichennoy otvetstvennostyu', 'obshchestvo s ogranichennoi otvetstvennostyu',
    'tov', 'too', 'mchj', 'eood', 'ood', 'sp z o o', 'spolka z ograniczona odpowiedzialnoscia', 'sro', 's r o',
    'llp', 'fz llc', 'fzllc', 'ltd liability co', 'd o o', 'doo', 'kft',
  ],
  jsc: [
    'jsc', 'ead', 'ojsc', 'cjsc', 'pjsc', 'pao', 'oao', 'zao', 'ao', 'pat', 'prat', 'vat', 'zat',
    'joint stock company', 'joint stock co', 'open joint stock company', 'closed joint stock company',
    'public joint stock company', 'private joint stock company', 'joint-stock company',
    'open joint stock co', 'closed joint stock co', 'public joint stock co',
    'aktsionernoe obshchestvo', 'aktsionernoye obshchestvo', 'otkrytoe aktsionernoe obshchestvo',
    'zakrytoe aktsionernoe obshchestvo', 'publichnoe aktsionernoe obshchestvo', 'jscb', 'ojscb',
  ],
  ltd: [
    'ltd', 'limited', 'co ltd', 'company limited', 'co limited', 'pte ltd', 'pvt ltd', 'private limited',
    'pty ltd', 'pte', 'pvt', 'pty', 'ltda', 'limitada', 'sdn bhd', 'bhd', 'berhad', 'sendirian berhad',
  ],
  corp: ['corp', 'corporation', 'inc', 'incorporated', 'incorporation'],
  co: ['co', 'company', 'cie', 'compagnie', 'compania', 'companhia', 'cia'],
  plc: ['plc', 'public limited company'],
  gmbh: ['gmbh', 'mbh', 'gesellschaft mit beschrankter haftung', 'ag', 'aktiengesellschaft', 'kg', 'gmbh co kg', 'ug'],
  sa: [
    'sa', 's a', 'sas', 'sarl', 's a r l', 'srl', 's r l', 'spa', 's p a', 'sae', 'sal', 's a l',
    'sociedad anonima', 'societe anonyme', 'sa de cv', 's a de c v', 'sa de c v', 's de rl de cv',
    's de r l de c v', 's de rl', 'sapi de cv', 's c', 'sc', 'scs', 'sprl', 'bvba', 'eirl', 'eurl', 'sa cv',
  ],
  bv: ['bv', 'b v', 'nv', 'n v', 'vof', 'cv'],
  free_zone: ['fze', 'fzco', 'fzc', 'fz co', 'fze llc', 'dmcc', 'jlt', 'dwc llc', 'dwc'],
  nordic: ['ab', 'as', 'a s', 'asa', 'oy', 'oyj', 'aps', 'a p s'],
  asia: ['kk', 'kabushiki kaisha', 'yk', 'yugen kaisha', 'pt', 'tbk', 'pt tbk', 'jsc co', 'hk', 'co ltd hk'],
  est: ['est', 'establishment', 'etablissement', 'muassasat', 'muassasa'],
  ip: ['ip', 'individualnyy predprinimatel', 'fop', 'pe', 'private enterprise'],
};

/** Phrase → family, longest first so "open joint stock company" wins over "company". */
export const LEGAL_FORM_PHRASES: ReadonlyArray<{ tokens: string[]; family: string }> = Object.entries(LEGAL_FORMS)
  .flatMap(([family, phrases]) => phrases.map((p) => ({ tokens: p.split(' '), family })))
  .sort((a, b) => b.tokens.length - a.tokens.length || a.tokens.join(' ').localeCompare(b.tokens.join(' ')));

/**
 * Legal forms that are also ordinary words or common name syllables; recognised only
 * at the start or end of an organisation name ("AO Gazprom", "Tradeco AS"), never in
 * the middle of a person's name ("Pak Ao", "Doo Hwan").
 */
export const EDGE_ONLY_LEGAL = new Set([
  'ao', 'as', 'ab', 'sa', 'sc', 'pt', 'co', 'kk', 'ip', 'pe', 'hk', 'est', 'pat', 'vat', 'too', 'tov', 'ag', 'kg', 'bv',
  'nv', 'cv', 'ug', 'oy', 'doo', 'sal', 'sae', 'cia', 'cie', 'fund', 'trust', 'foundation', 'pte', 'pvt', 'pty',
]);

/** Joining particles of Arabic, Iberian, Dutch, German and French names. */
export const PARTICLES = new Set([
  'al', 'el', 'ul', 'ud', 'ad', 'ar', 'as', 'at', 'az', 'an', 'ash', 'adh', 'ath',
  'bin', 'ben', 'ibn', 'bint', 'ould', 'wuld', 'walad',
  'de', 'del', 'della', 'di', 'da', 'das', 'do', 'dos', 'du', 'la', 'le', 'les', 'los', 'lo', 'y', 'e',
  'van', 'von', 'der', 'den', 'ter', 'ten', 'zu', 'af', 'st',
]);

// "fi"/"fy" and "wa" are Arabic "in" and "and" as they come out of transliteration.
export const STOPWORDS = new Set(['and', 'of', 'the', 'for', 'in', 'und', 'et', 'fur', 'pour', 'fi', 'fy', 'wa']);

/**
 * Words that many unrelated organisations share. They still match and retrieve, but
 * with little weight, so two companies that agree only on "International Trading"
 * are not the same company.
 */
export const GENERIC_ORG_WORDS = new Set(
  (
    'trading trade traders import export imports exports international intl internacional group groups holding holdings ' +
    'industries industry industrial services service solutions systems logistics shipping ship shipping finance financial ' +
    'investment investments invest capital resources electronics electronic engineering technology technologies tech ' +
    'technical general enterprise enterprises development construction petroleum energy marine maritime global ' +
    'consulting consultancy management partners supply supplies equipment foundation fund trust association bank ' +
    'commercial commerce agency center centre manufacturing products transport transportation united national new world ' +
    'chemical chemicals metal metals steel oil gas mining motors media telecom communications pharmaceutical ' +
    'pharmaceuticals security travel tourism airlines airline aviation real estate properties property ventures exchange ' +
    'company corporation limited incorporated establishment est office bureau institute factory plant works ' +
    'organization organisation society union network networks research science scientific production productions ' +
    'machinery machine machines instruments components parts spare tools materials materiale import-export impex ' +
    'imp exp sales marketing distribution distributors logistic cargo freight express lines line navigation tanker ' +
    'tankers shipmanagement ships boats agro food foods textile textiles auto automotive medical health care'
  ).split(' '),
);

export const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mme', 'mlle', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady', 'herr', 'frau',
  'sheikh', 'shaikh', 'shaykh', 'sheik', 'haji', 'hajji', 'hadji', 'alhaj', 'alhaji', 'hajj',
  'mullah', 'mulla', 'mullah', 'maulavi', 'mawlawi', 'maulvi', 'molvi', 'maulana', 'mawlana', 'qari', 'hafiz',
  'imam', 'ayatollah', 'hojatoleslam',
  'general', 'gen', 'lieutenant', 'lt', 'colonel', 'col', 'major', 'maj', 'captain', 'capt', 'cpt', 'admiral', 'adm',
  'brigadier', 'commander', 'commandant', 'comandante', 'cmdr', 'sergeant', 'sgt', 'marshal',
  'president', 'minister', 'senator', 'deputy', 'ambassador', 'excellency', 'his', 'her', 'hrh', 'hon',
  'engineer', 'eng', 'rev', 'reverend', 'father', 'fr', 'bishop', 'mgr',
]);

/** Vessel-type prefixes, ignored only as the first token of a vessel name. */
export const VESSEL_PREFIXES = new Set(['mv', 'mt', 'ms', 'ss', 'fv', 'my', 'sy', 'tb', 'mts', 'mfv', 'rv']);
