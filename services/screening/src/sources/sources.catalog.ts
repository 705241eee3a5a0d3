import type { Feed } from '@vigil/proto';
import type { ListId, SourceFormat } from '@vigil/lists';
import type { SourceDefinition, SourceFile } from './source.js';

// What the product knows about each official list: names, feed, display dataset and the
// publisher's download URLs. Feeds follow the pricing tiers: OFAC has its own feed, other
// US lists are us_sanctions, EU lists eu_sanctions, UN and UK lists sanctions.

type Known = Omit<SourceDefinition, 'files' | 'refreshMinutes' | 'source' | 'format'> & {
  format: SourceFormat;
  official: SourceFile[];
};

const OFAC_EXPORTS = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports';

export const KNOWN_LISTS: Readonly<Record<Exclude<ListId, 'opensanctions'>, Known>> = {
  'ofac-sdn': {
    listId: 'ofac-sdn',
    name: 'OFAC Specially Designated Nationals (SDN)',
    publisher: 'US Treasury, Office of Foreign Assets Control',
    description: 'Individuals, companies, vessels and aircraft whose assets are blocked under US sanctions programs.',
    feed: 'ofac',
    dataset: 'ofac_sdn',
    format: 'ofac-csv',
    official: [
      { name: 'sdn.csv', location: `${OFAC_EXPORTS}/SDN.CSV` },
      { name: 'add.csv', location: `${OFAC_EXPORTS}/ADD.CSV` },
      { name: 'alt.csv', location: `${OFAC_EXPORTS}/ALT.CSV` },
      { name: 'sdn_comments.csv', location: `${OFAC_EXPORTS}/SDN_COMMENTS.CSV` },
    ],
  },
  'ofac-cons': {
    listId: 'ofac-cons',
    name: 'OFAC Consolidated (non-SDN) Sanctions',
    publisher: 'US Treasury, Office of Foreign Assets Control',
    description: 'Non-SDN lists: Sectoral Sanctions Identifications, NS-MBS, CMIC, Palestinian Legislative Council and others.',
    feed: 'ofac',
    dataset: 'ofac_consolidated',
    format: 'ofac-csv',
    official: [
      { name: 'cons_prim.csv', location: `${OFAC_EXPORTS}/CONS_PRIM.CSV` },
      { name: 'cons_add.csv', location: `${OFAC_EXPORTS}/CONS_ADD.CSV` },
      { name: 'cons_alt.csv', location: `${OFAC_EXPORTS}/CONS_ALT.CSV` },
      { name: 'cons_comments.csv', location: `${OFAC_EXPORTS}/CONS_COMMENTS.CSV` },
    ],
  },
  'un-sc': {
    listId: 'un-sc',
    name: 'UN Security Council Consolidated List',
    publisher: 'United Nations Security Council',
    description: 'Individuals and entities subject to measures imposed by the Security Council.',
    feed: 'sanctions',
    dataset: 'un_sanctions',
    format: 'un-xml',
    official: [{ name: 'consolidated.xml', location: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml' }],
  },
  'eu-fsf': {
    listId: 'eu-fsf',
    name: 'EU Financial Sanctions (consolidated)',
    publisher: 'European Commission, DG FISMA',
    description: 'Persons, groups and entities subject to EU financial sanctions.',
    feed: 'eu_sanctions',
    dataset: 'eu_sanctions',
    format: 'eu-fsf-xml',
    official: [
      {
        name: 'eu_fsf.xml',
        location: 'https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw',
      },
    ],
  },
  'uk-hmt': {
    listId: 'uk-hmt',
    name: 'UK Financial Sanctions',
    publisher: 'HM Treasury (OFSI) / FCDO',
    description: 'Targets of UK financial sanctions. OFSI closed its Consolidated List in January 2026; the FCDO UK Sanctions List replaces it.',
    feed: 'sanctions',
    dataset: 'hm_treasury',
    format: 'uk-sanctions-list-csv',
    official: [{ name: 'UK-Sanctions-List.csv', location: 'https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv' }],
  },
  'us-csl': {
    listId: 'us-csl',
    name: 'US Consolidated Screening List',
    publisher: 'US International Trade Administration',
    description: 'Export screening lists of the Departments of Commerce, State and the Treasury in one file.',
    feed: 'us_sanctions',
    dataset: 'us_sanctions_csl',
    format: 'us-csl-csv',
    official: [{ name: 'consolidated.csv', location: 'https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv' }],
  },
  'us-bis-dpl': {
    listId: 'us-bis-dpl',
    name: 'US BIS Denied Persons List',
    publisher: 'US Department of Commerce, Bureau of Industry and Security',
    description: 'Parties denied export privileges by BIS orders.',
    feed: 'us_sanctions',
    dataset: 'us_sanctions_bis_dpl',
    format: 'us-bis-dpl-tsv',
    official: [{ name: 'dpl.txt', location: 'https://www.bis.doc.gov/dpl/dpl.txt' }],
  },
};

const OPENSANCTIONS_TITLES: Readonly<Partial<Record<Feed, string>>> = {
  peps: 'Politically Exposed Persons',
  crime: 'Criminal Records',
  wanted: 'Wanted Persons',
  regulatory: 'Regulatory Watchlists',
  gb_coh_disqualified: 'UK Disqualified Directors',
  sanctions: 'Sanctions',
  eu_sanctions: 'EU Sanctions',
  us_sanctions: 'US Sanctions',
  ofac: 'OFAC',
};

/** A source key from free text: lowercase, [a-z0-9-]. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/\.ftm\.json$|\.json$|\.jsonl$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** Feed of an OpenSanctions file from its dataset or file name, as the product's dataset titles read them. */
export function feedFromName(name: string): Feed {
  const n = name.toLowerCase().replace(/-/g, '_');
  if (n.includes('gb_coh') || n.includes('disqualified')) return 'gb_coh_disqualified';
  if (n.includes('pep')) return 'peps';
  if (n.includes('wanted') || n.includes('red_notice')) return 'wanted';
  if (n.includes('crime') || n.includes('criminal')) return 'crime';
  if (n.includes('regulatory')) return 'regulatory';
  if (n.includes('eu_')) return 'eu_sanctions';
  if (n.includes('us_')) return 'us_sanctions';
  return 'sanctions';
}

export function openSanctionsDefinition(
  key: string,
  dataset: string,
  feed: Feed,
  files: SourceFile[],
  refreshMinutes: number,
): SourceDefinition {
  return {
    source: key,
    listId: 'opensanctions',
    name: `OpenSanctions: ${OPENSANCTIONS_TITLES[feed] ?? feed} (${dataset})`,
    publisher: 'OpenSanctions (FollowTheMoney data; CC BY-NC 4.0 unless licensed)',
    description: `FollowTheMoney entities of the OpenSanctions "${dataset}" dataset.`,
    feed,
    dataset,
    format: 'ftm-jsonl',
    files,
    refreshMinutes,
  };
}

export function officialOpenSanctionsUrl(dataset: string): string {
  return `https://data.opensanctions.org/datasets/latest/${encodeURIComponent(dataset)}/entities.ftm.json`;
}
