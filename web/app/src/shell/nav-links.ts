import type { To } from 'react-router-dom';

export type NavItem = { label: string; to: string };

/** The public pages, in the order the header and footer list them. */
export const PUBLIC_NAV: readonly NavItem[] = [
  { label: 'Home', to: '/' },
  { label: 'About Us', to: '/about-us' },
  { label: 'Services', to: '/services' },
  { label: 'Watchlists', to: '/watchlists' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'Docs', to: '/docs' },
];

export const CONTACT_LINK: To = { pathname: '/about-us', hash: '#contact' };
export const JOIN_LINK = '/login';
