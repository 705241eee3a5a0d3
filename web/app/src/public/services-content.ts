import {
  Banknote,
  BellRing,
  Building,
  FileSearch,
  Landmark,
  Plane,
  ScanSearch,
  Ship,
  Shield,
  Swords,
  UserCheck,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

export type Capability = { icon: LucideIcon; title: string; description: string };

export const CAPABILITIES: Capability[] = [
  { icon: ScanSearch, title: 'Real-time name screening', description: 'Screen a person or organisation in one API call at onboarding, payment or payout time.' },
  { icon: Workflow, title: 'Bulk screening', description: 'Screen a whole customer book or counterparty file in one batch, with results per row.' },
  { icon: BellRing, title: 'Continuous monitoring', description: 'Re-screen monitored customers whenever a list changes and alert on new possible matches.' },
  { icon: FileSearch, title: 'Explainable matches', description: 'Each result shows which name tokens matched, how, and with what weight — evidence for your file.' },
];

export type WorkflowStep = { icon: LucideIcon; title: string; description: string };

export const WORKFLOW: WorkflowStep[] = [
  { icon: UserCheck, title: 'Capture', description: 'Your onboarding or payment flow sends the name, date of birth, nationality and entity type.' },
  { icon: ScanSearch, title: 'Screen', description: 'Vigil matches the name against the current version of every list your plan covers.' },
  { icon: FileSearch, title: 'Review', description: 'Possible matches come back scored and explained, so an analyst can clear or escalate quickly.' },
  { icon: BellRing, title: 'Monitor', description: 'The customer stays on a monitoring list and is re-screened automatically as lists change.' },
];

export type SanctionType = {
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  overview: string;
  keyFeatures: string[];
  complianceBenefits: string[];
  useCases: string[];
};

export const SANCTION_TYPES: SanctionType[] = [
  {
    id: 'financial',
    icon: Banknote,
    title: 'Financial sanctions',
    description: 'Asset freezes and prohibitions on making funds available to designated persons and entities.',
    overview:
      'Financial sanctions prohibit dealing with the funds or economic resources of designated persons. They are the most common reason a bank or payment firm must stop a transaction.',
    keyFeatures: ['OFAC, UN, UK and EU designations', 'Aliases and transliterations', 'Ownership and control context where published'],
    complianceBenefits: ['Evidence for each cleared or escalated hit', 'Screening at onboarding and at payment time', 'A record of the list version used'],
    useCases: ['Customer onboarding (KYC)', 'Payment and payout screening', 'Periodic re-screening of the book'],
  },
  {
    id: 'trade',
    icon: Ship,
    title: 'Trade sanctions',
    description: 'Export controls and restrictions on goods, technology and the parties that move them.',
    overview:
      'Trade sanctions and export controls restrict who may receive certain goods, software and technology. Screening counterparties, consignees and end users is part of every export compliance programme.',
    keyFeatures: ['Denied and restricted party lists', 'Organisation-name matching with legal-form handling', 'Country and address context'],
    complianceBenefits: ['Fewer shipments held for manual checks', 'Consistent screening across subsidiaries', 'Audit trail per counterparty'],
    useCases: ['Supplier and distributor due diligence', 'Trade finance', 'Freight forwarding and logistics'],
  },
  {
    id: 'travel',
    icon: Plane,
    title: 'Travel sanctions',
    description: 'Travel bans on named individuals, often alongside asset freezes.',
    overview:
      'Travel bans prevent designated individuals from entering or transiting a jurisdiction. Airlines, travel platforms and hospitality businesses screen passengers and guests against them.',
    keyFeatures: ['Person matching with date of birth and nationality', 'Reversed and partial name handling', 'Title and honorific normalisation'],
    complianceBenefits: ['Real-time checks during booking', 'Clear reasons for every flagged booking', 'Records ready for regulators'],
    useCases: ['Airline and travel agency bookings', 'Hotel and hospitality onboarding', 'Corporate travel programmes'],
  },
  {
    id: 'military',
    icon: Swords,
    title: 'Military sanctions',
    description: 'Arms embargoes and measures against military end users and dual-use goods.',
    overview:
      'Military sanctions target arms trade and organisations connected to military programmes. Manufacturers, distributors and financiers of dual-use goods must screen the parties they deal with.',
    keyFeatures: ['Military end-user and entity lists', 'Organisation aliases and former names', 'Regular list refreshes'],
    complianceBenefits: ['Reduced risk of dual-use diversion', 'Documented due diligence', 'Consistent decisions across teams'],
    useCases: ['Dual-use goods exporters', 'Defence supply chains', 'Banks financing industrial trade'],
  },
];

export type Risk = { icon: LucideIcon; title: string; description: string };

export const RISKS: Risk[] = [
  { icon: Landmark, title: 'Regulatory penalties', description: 'Sanctions breaches carry fines, licence conditions and personal liability for senior managers.' },
  { icon: Building, title: 'Correspondent de-risking', description: 'Weak screening can cost you the banking relationships your business depends on.' },
  { icon: Shield, title: 'Reputational damage', description: 'Being the platform a sanctioned party used is a headline no firm wants.' },
];
