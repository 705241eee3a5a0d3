import { Button, cn, VigilLogo } from '@vigil/ui';
import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAuth } from '@vigil/ui/session';
import { useHeaderVisible } from './header-visibility.js';
import { CONTACT_LINK, JOIN_LINK, PUBLIC_NAV } from './nav-links.js';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-primary-soft text-primary' : 'text-muted-foreground hover:bg-muted hover:text-foreground',
  );

export function SiteHeader() {
  const scrolledAway = !useHeaderVisible();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const { status } = useAuth();
  const signedIn = status === 'authenticated';

  useEffect(() => setMenuOpen(false), [location.pathname, location.hash]);

  const hidden = scrolledAway && !menuOpen;

  return (
    <header
      data-visible={!hidden}
      className={cn(
        'fixed inset-x-0 top-0 z-50 px-3 pt-3 transition-transform duration-300 ease-out motion-reduce:transition-none sm:px-6 sm:pt-4',
        // Keyboard users tabbing into a hidden header get it back.
        hidden ? '-translate-y-[calc(100%+1rem)] focus-within:translate-y-0' : 'translate-y-0',
      )}
    >
      <div className="mx-auto max-w-6xl rounded-2xl border border-border/80 bg-surface/85 shadow-float backdrop-blur-md supports-[backdrop-filter]:bg-surface/75">
        <div className="flex h-16 items-center justify-between gap-4 px-4 sm:px-5">
          <Link to="/" aria-label="Vigil home" className="rounded-lg">
            <VigilLogo />
          </Link>

          <nav aria-label="Main" className="hidden lg:block">
            <ul className="flex items-center gap-1">
              {PUBLIC_NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === '/'} className={navLinkClass}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>

          <div className="flex items-center gap-2">
            <Button asChild variant="ghost" className="hidden sm:inline-flex">
              <Link to={CONTACT_LINK}>Contact Us</Link>
            </Button>
            {/* Signed in, the same button leads back to the account: the spec's "labelled Dashboard in one place". */}
            <Button asChild>
              {signedIn ? <Link to="/dashboard">Dashboard</Link> : <Link to={JOIN_LINK}>Join Now</Link>}
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="lg:hidden"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="mobile-nav"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
            </Button>
          </div>
        </div>

        {menuOpen && (
          <nav id="mobile-nav" aria-label="Main" className="border-t border-border px-3 py-3 lg:hidden">
            <ul className="flex flex-col gap-1">
              {PUBLIC_NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === '/'} className={(state) => cn(navLinkClass(state), 'block')}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
              <li className="sm:hidden">
                <Link
                  to={CONTACT_LINK}
                  className="block rounded-lg px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted"
                >
                  Contact Us
                </Link>
              </li>
            </ul>
          </nav>
        )}
      </div>
    </header>
  );
}
