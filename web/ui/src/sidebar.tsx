import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Slot } from '@radix-ui/react-slot';
import { PanelLeft } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ComponentProps,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { cn } from './cn.js';
import {
  SIDEBAR_COOKIE_MAX_AGE_S,
  SIDEBAR_COOKIE_NAME,
  SIDEBAR_KEYBOARD_SHORTCUT,
  SIDEBAR_MOBILE_BREAKPOINT_PX,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_MOBILE,
  readSidebarCookie,
} from './sidebar-state.js';

type SidebarContextValue = {
  /** Desktop: expanded (true) or collapsed to icons (false). */
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Below the breakpoint the sidebar is an off-canvas sheet. */
  isMobile: boolean;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  toggle: () => void;
};

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const context = useContext(SidebarContext);
  if (!context) throw new Error('useSidebar must be used inside a SidebarProvider.');
  return context;
}

function useIsMobile(): boolean {
  const query = `(max-width: ${SIDEBAR_MOBILE_BREAKPOINT_PX - 1}px)`;
  const [mobile, setMobile] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMobile(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return mobile;
}

/**
 * Holds the sidebar's state for a layout: expanded or collapsed on desktop (kept in a
 * 7-day cookie), an off-canvas sheet below 768 px, Ctrl or Cmd + B toggling either.
 */
export function SidebarProvider({
  children,
  className,
  style,
}: {
  children: ReactNode;
  className?: string;
  style?: CSSProperties;
}) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() =>
    typeof document === 'undefined' ? true : readSidebarCookie(document.cookie),
  );
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    document.cookie = `${SIDEBAR_COOKIE_NAME}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; samesite=lax`;
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((value) => !value);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT && (event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  const value = useMemo(
    () => ({ open, setOpen, isMobile, openMobile, setOpenMobile, toggle }),
    [open, setOpen, isMobile, openMobile, toggle],
  );
  return (
    <SidebarContext.Provider value={value}>
      <div
        data-sidebar-state={open ? 'expanded' : 'collapsed'}
        className={cn('flex min-h-svh w-full', className)}
        style={
          {
            '--sidebar-width': SIDEBAR_WIDTH,
            '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
            '--sidebar-width-collapsed': SIDEBAR_WIDTH_COLLAPSED,
            ...style,
          } as CSSProperties
        }
      >
        {children}
      </div>
    </SidebarContext.Provider>
  );
}

/** The navigation column: fixed beside the content on desktop, a sheet on mobile. */
export function Sidebar({ children, label, className }: { children: ReactNode; label: string; className?: string }) {
  const { open, isMobile, openMobile, setOpenMobile } = useSidebar();
  if (isMobile) {
    return (
      <DialogPrimitive.Root open={openMobile} onOpenChange={setOpenMobile}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink/50" />
          <DialogPrimitive.Content
            aria-describedby={undefined}
            // Portalled outside the provider, so the provider's width variables do not reach it.
            style={{ width: SIDEBAR_WIDTH_MOBILE }}
            className="fixed inset-y-0 left-0 z-50 flex flex-col border-r border-border bg-surface shadow-float focus:outline-none"
          >
            <DialogPrimitive.Title className="sr-only">{label}</DialogPrimitive.Title>
            <nav aria-label={label} className={cn('flex min-h-0 flex-1 flex-col', className)} data-collapsed="false">
              {children}
            </nav>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    );
  }
  return (
    <>
      {/* Reserves the column's width in the page flow; the column itself stays fixed while the page scrolls. */}
      <div
        aria-hidden
        className={cn(
          'shrink-0 transition-[width] duration-200',
          open ? 'w-[var(--sidebar-width)]' : 'w-[var(--sidebar-width-collapsed)]',
        )}
      />
      <nav
        aria-label={label}
        data-collapsed={open ? 'false' : 'true'}
        className={cn(
          'group/sidebar fixed inset-y-0 left-0 z-30 flex flex-col border-r border-border bg-surface transition-[width] duration-200',
          open ? 'w-[var(--sidebar-width)]' : 'w-[var(--sidebar-width-collapsed)]',
          className,
        )}
      >
        {children}
      </nav>
    </>
  );
}

export function SidebarHeader({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex h-14 shrink-0 items-center gap-2 border-b border-border px-3', className)} {...props} />
  );
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto p-2', className)} {...props} />;
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('shrink-0 border-t border-border p-2', className)} {...props} />;
}

export function SidebarMenu({ className, ...props }: ComponentProps<'ul'>) {
  return <ul className={cn('flex flex-col gap-0.5', className)} {...props} />;
}

/**
 * One entry: styles its only child (a router link holding an icon and a SidebarLabel). Collapsed,
 * only the icon shows; `label` stays the link's tooltip and accessible name.
 */
export function SidebarMenuButton({
  active,
  label,
  className,
  children,
}: {
  active?: boolean;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const { open, isMobile, setOpenMobile } = useSidebar();
  const collapsed = !open && !isMobile;
  return (
    <li>
      <Slot
        aria-current={active ? 'page' : undefined}
        title={collapsed ? label : undefined}
        aria-label={collapsed ? label : undefined}
        onClick={() => {
          if (isMobile) setOpenMobile(false);
        }}
        className={cn(
          'flex h-9 items-center gap-3 overflow-hidden rounded-lg px-2.5 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-4 [&_svg]:shrink-0',
          collapsed && 'justify-center px-0',
          active && 'bg-primary-soft text-primary hover:bg-primary-soft hover:text-primary',
          className,
        )}
      >
        {children}
      </Slot>
    </li>
  );
}

/** An entry's text: hidden (still read by screen readers) when the sidebar is collapsed. */
export function SidebarLabel({ children }: { children: ReactNode }) {
  const { open, isMobile } = useSidebar();
  return <span className={cn('truncate', !open && !isMobile && 'sr-only')}>{children}</span>;
}

/** The button that opens (mobile) or collapses (desktop) the sidebar; Ctrl/Cmd + B does the same. */
export function SidebarTrigger({ className }: { className?: string }) {
  const { toggle, open, isMobile, openMobile } = useSidebar();
  const expanded = isMobile ? openMobile : open;
  return (
    <button
      type="button"
      onClick={toggle}
      aria-expanded={expanded}
      aria-label="Toggle sidebar"
      title="Toggle sidebar (Ctrl+B)"
      className={cn(
        'inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      <PanelLeft className="size-4" aria-hidden />
    </button>
  );
}
