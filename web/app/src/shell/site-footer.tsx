import { VigilLogo } from '@vigil/ui';
import { Link, type To } from 'react-router-dom';
import { CONTACT_LINK } from './nav-links.js';

type FooterColumn = { heading: string; links: { label: string; to: To }[] };

const COLUMNS: FooterColumn[] = [
  {
    heading: 'Product',
    links: [
      { label: 'Services', to: '/services' },
      { label: 'Watchlists', to: '/watchlists' },
      { label: 'Pricing', to: '/pricing' },
      { label: 'Documentation', to: '/docs' },
    ],
  },
  {
    heading: 'Company',
    links: [
      { label: 'About Us', to: '/about-us' },
      { label: 'Contact Us', to: CONTACT_LINK },
      { label: 'Sign In', to: '/login' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { label: 'Privacy Policy', to: '/privacy-policy' },
      { label: 'Terms of Service', to: '/terms-of-service' },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="border-t border-border bg-surface">
      <div className="mx-auto grid max-w-6xl gap-10 px-6 py-14 md:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div className="flex max-w-sm flex-col gap-4">
          <VigilLogo />
          <p className="text-sm leading-relaxed text-muted-foreground">
            Sanctions, PEP and watch-list screening for KYC and AML compliance teams, through a REST API and a web
            dashboard.
          </p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.heading} aria-label={column.heading}>
            <h2 className="text-sm font-semibold text-foreground">{column.heading}</h2>
            <ul className="mt-4 flex flex-col gap-2.5">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className="text-sm text-muted-foreground transition-colors hover:text-foreground">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-6 py-6 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getFullYear()} Vigil. All rights reserved.</p>
          <p>Screening results support your compliance decisions; they do not replace them.</p>
        </div>
      </div>
    </footer>
  );
}
