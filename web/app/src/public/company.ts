import { Briefcase, Handshake, LifeBuoy, Mail, Megaphone, type LucideIcon } from 'lucide-react';

/**
 * Contact details in one place. The specification leaves the real values out;
 * these use the reserved example domain until the company's own are configured.
 */
export const SUPPORT_EMAIL = 'support@vigil.example';

export type ContactPoint = { icon: LucideIcon; title: string; description: string; email: string };

export const CONTACT_POINTS: ContactPoint[] = [
  { icon: Handshake, title: 'Partnerships', description: 'Resell, embed or integrate Vigil screening.', email: 'partners@vigil.example' },
  { icon: Megaphone, title: 'Media', description: 'Press enquiries and interview requests.', email: 'press@vigil.example' },
  { icon: Briefcase, title: 'Careers', description: 'Join the team building Vigil.', email: 'careers@vigil.example' },
  { icon: Mail, title: 'General inquiry', description: 'Plans, coverage, procurement and onboarding.', email: 'hello@vigil.example' },
  { icon: LifeBuoy, title: 'Support', description: 'Your account, API key or integration.', email: SUPPORT_EMAIL },
];

export type Office = { region: string; location: string; address: string; contact: string };

export const OFFICES: Office[] = [
  { region: 'Americas', location: 'United States', address: 'New York, NY', contact: 'americas@vigil.example' },
  { region: 'Europe, Middle East & Africa', location: 'Germany', address: 'Frankfurt am Main', contact: 'emea@vigil.example' },
  { region: 'Asia-Pacific', location: 'Japan', address: 'Tokyo', contact: 'apac@vigil.example' },
];
