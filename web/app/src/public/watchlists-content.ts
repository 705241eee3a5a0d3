import type { Feed } from '@vigil/proto';

export type WatchlistCategory = 'Financial' | 'Travel' | 'Trade' | 'Military Sanctions';

export type Watchlist = {
  feed: Feed;
  name: string;
  description: string;
  source: string;
  category: WatchlistCategory;
  coverage: string;
  features: string[];
  detail: { overview: string; purpose: string; coverage: string; useCases: string[]; legalBasis: string };
};

export const WATCHLISTS: Watchlist[] = [
  {
    feed: 'ofac',
    name: 'OFAC Sanctions',
    description: "The US Treasury's Specially Designated Nationals list and its other sanctions programmes.",
    source: 'US Department of the Treasury, Office of Foreign Assets Control',
    category: 'Financial',
    coverage: 'Global: individuals, entities, vessels and aircraft',
    features: ['SDN and consolidated non-SDN lists', 'Aliases, dates of birth, identifiers', 'Programme tags'],
    detail: {
      overview: 'OFAC administers US economic and trade sanctions. Persons on the SDN list have their US assets blocked and US persons are generally prohibited from dealing with them.',
      purpose: 'Screening OFAC lists is expected of any business with a US nexus, including transactions in US dollars.',
      coverage: 'Loaded from OFAC’s published files, with every alias and identifier kept for matching.',
      useCases: ['Payments in US dollars', 'Customer onboarding', 'Correspondent banking'],
      legalBasis: 'International Emergency Economic Powers Act, Trading with the Enemy Act and programme-specific executive orders.',
    },
  },
  {
    feed: 'peps',
    name: 'Politically Exposed Persons',
    description: 'People in prominent public functions, their family members and close associates.',
    source: 'Public government and parliamentary sources',
    category: 'Financial',
    coverage: 'Heads of state, ministers, parliamentarians, senior officials',
    features: ['Positions held', 'Country of the function', 'Relatives and close associates where known'],
    detail: {
      overview: 'A PEP is not a wrongdoer, but the position brings a higher risk of bribery and corruption, so regulators require enhanced due diligence.',
      purpose: 'Identify PEPs at onboarding and apply enhanced due diligence and senior-management approval.',
      coverage: 'Built from public sources on office holders; refreshed as sources change.',
      useCases: ['Enhanced due diligence', 'Private banking', 'Wealth management'],
      legalBasis: 'FATF Recommendation 12; EU Anti-Money Laundering Directives; UK Money Laundering Regulations 2017.',
    },
  },
  {
    feed: 'regulatory',
    name: 'Regulatory Lists',
    description: 'Enforcement actions and warnings published by financial regulators.',
    source: 'Financial regulators and supervisory authorities',
    category: 'Financial',
    coverage: 'Unauthorised firms, enforcement actions, prohibitions',
    features: ['Regulator warnings', 'Prohibited individuals', 'Enforcement notices'],
    detail: {
      overview: 'Regulators publish warnings about unauthorised firms and prohibitions against individuals. Dealing with them is a conduct and fraud risk.',
      purpose: 'Catch counterparties a regulator has already warned about.',
      coverage: 'Regulator publications, normalised into one entity model.',
      useCases: ['Merchant onboarding', 'Investment platforms', 'Introducer due diligence'],
      legalBasis: 'Powers of each national regulator to publish warnings and prohibition orders.',
    },
  },
  {
    feed: 'sanctions',
    name: 'Global Sanctions',
    description: 'United Nations Security Council and other international sanctions lists.',
    source: 'UN Security Council and national authorities',
    category: 'Military Sanctions',
    coverage: 'Individuals and entities under international measures',
    features: ['UN consolidated list', 'UK OFSI consolidated list', 'Arms embargo designations'],
    detail: {
      overview: 'UN sanctions bind all member states and include asset freezes, travel bans and arms embargoes. National lists implement and extend them.',
      purpose: 'Meet international obligations wherever you operate.',
      coverage: 'UN and national consolidated lists, read from the official publications.',
      useCases: ['Cross-border payments', 'Trade finance', 'Defence and dual-use supply chains'],
      legalBasis: 'Chapter VII of the UN Charter and national implementing legislation.',
    },
  },
  {
    feed: 'wanted',
    name: 'Wanted Persons',
    description: 'People sought by law enforcement agencies.',
    source: 'Law-enforcement public notices',
    category: 'Travel',
    coverage: 'Individuals subject to public wanted notices',
    features: ['Names and aliases', 'Dates of birth and nationalities', 'Issuing agency'],
    detail: {
      overview: 'Law-enforcement agencies publish notices for people they are seeking. A match calls for careful review, not automatic refusal.',
      purpose: 'Flag customers and travellers subject to public wanted notices.',
      coverage: 'Public notices only; no restricted law-enforcement data.',
      useCases: ['Travel and hospitality', 'High-risk onboarding', 'Marketplace sellers'],
      legalBasis: 'Public notices issued by the relevant agencies.',
    },
  },
  {
    feed: 'gb_coh_disqualified',
    name: 'UK Disqualified Directors',
    description: 'Individuals disqualified from acting as company directors in the UK.',
    source: 'Companies House (United Kingdom)',
    category: 'Trade',
    coverage: 'Disqualification orders and undertakings',
    features: ['Disqualification period', 'Reason and legal basis', 'Company associations'],
    detail: {
      overview: 'A disqualified director may not manage a UK company for a set period, often after misconduct or insolvency.',
      purpose: 'Check the directors and controllers of the companies you onboard.',
      coverage: 'Companies House published disqualifications.',
      useCases: ['Business onboarding (KYB)', 'Lending to SMEs', 'Supplier due diligence'],
      legalBasis: 'Company Directors Disqualification Act 1986.',
    },
  },
  {
    feed: 'crime',
    name: 'Crime Lists',
    description: 'Public records of financial crime, fraud and organised crime.',
    source: 'Public court and agency publications',
    category: 'Financial',
    coverage: 'Individuals and organisations linked to serious crime',
    features: ['Offence category', 'Jurisdiction', 'Source reference'],
    detail: {
      overview: 'Adverse records of financial crime are a strong risk signal for money laundering and fraud.',
      purpose: 'Add a criminal-risk signal to customer risk assessments.',
      coverage: 'Public records only.',
      useCases: ['Risk scoring', 'Enhanced due diligence', 'Transaction monitoring escalation'],
      legalBasis: 'Public records published by courts and agencies.',
    },
  },
  {
    feed: 'us_sanctions',
    name: 'US Sanctions',
    description: 'US export-control and restricted-party lists beyond OFAC.',
    source: 'US Departments of Commerce and State (Consolidated Screening List)',
    category: 'Trade',
    coverage: 'Denied persons, entity list, unverified list and more',
    features: ['BIS Denied Persons and Entity lists', 'State Department debarments', 'Export-control context'],
    detail: {
      overview: 'The US Consolidated Screening List combines restricted-party lists from several agencies that control exports.',
      purpose: 'Screen consignees, end users and intermediaries for export compliance.',
      coverage: 'Loaded from the published Consolidated Screening List.',
      useCases: ['Exporters and manufacturers', 'Freight and logistics', 'Technology licensing'],
      legalBasis: 'Export Administration Regulations; International Traffic in Arms Regulations.',
    },
  },
  {
    feed: 'eu_sanctions',
    name: 'EU Sanctions',
    description: 'Restrictive measures adopted by the European Union.',
    source: 'European Union (consolidated financial sanctions list)',
    category: 'Financial',
    coverage: 'Persons, groups and entities under EU restrictive measures',
    features: ['Asset freezes', 'Regulation references', 'Aliases in several scripts'],
    detail: {
      overview: 'EU restrictive measures apply to any business operating in the EU and to EU nationals everywhere.',
      purpose: 'Meet EU asset-freeze and prohibition obligations.',
      coverage: 'The EU consolidated list as published.',
      useCases: ['EU banking and payments', 'Crypto-asset service providers', 'Insurance'],
      legalBasis: 'Article 215 of the Treaty on the Functioning of the European Union and Council regulations.',
    },
  },
];
