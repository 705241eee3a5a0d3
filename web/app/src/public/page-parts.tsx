import { Badge, cn } from '@vigil/ui';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** The top band of every public page below Home: eyebrow, the page's one h1, a lead paragraph and actions. */
export function PageHero({
  eyebrow,
  icon: Icon,
  title,
  lead,
  children,
}: {
  eyebrow: string;
  icon?: LucideIcon;
  title: string;
  lead: string;
  children?: ReactNode;
}) {
  return (
    <section className="relative overflow-hidden border-b border-border bg-surface pt-32 pb-16 sm:pt-40 sm:pb-20">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(50rem_24rem_at_80%_-20%,var(--color-primary-soft),transparent_70%)]"
      />
      <div className="relative mx-auto max-w-6xl px-6">
        <Badge tone="brand" className="px-3 py-1">
          {Icon && <Icon aria-hidden />} {eyebrow}
        </Badge>
        <h1 className="mt-5 max-w-3xl text-4xl font-semibold tracking-tight text-ink sm:text-5xl">{title}</h1>
        <p className="mt-5 max-w-2xl text-lg leading-relaxed text-muted-foreground">{lead}</p>
        {children && <div className="mt-8 flex flex-wrap gap-3">{children}</div>}
      </div>
    </section>
  );
}

export function SectionHeading({
  eyebrow,
  title,
  description,
  id,
  align = 'center',
}: {
  eyebrow: string;
  title: string;
  description?: string;
  id?: string;
  align?: 'center' | 'left';
}) {
  return (
    <div className={cn('max-w-2xl', align === 'center' && 'mx-auto text-center')}>
      <p className="text-sm font-semibold uppercase tracking-wider text-primary">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-foreground sm:text-[2.1rem]">
        {title}
      </h2>
      {description && <p className="mt-4 text-base leading-relaxed text-muted-foreground">{description}</p>}
    </div>
  );
}

export function Section({
  children,
  tone = 'plain',
  labelledBy,
  id,
}: {
  children: ReactNode;
  tone?: 'plain' | 'surface';
  labelledBy?: string;
  id?: string;
}) {
  return (
    <section
      id={id}
      aria-labelledby={labelledBy}
      className={cn('scroll-mt-28 py-16 sm:py-20', tone === 'surface' && 'border-y border-border bg-surface')}
    >
      <div className="mx-auto max-w-6xl px-6">{children}</div>
    </section>
  );
}

/** Long-form text for the legal pages: readable measure, spaced headings. */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl space-y-10 px-6 py-14 text-[15px] leading-7 text-foreground/90 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground [&_li]:ml-5 [&_li]:list-disc [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:space-y-1.5">
      {children}
    </div>
  );
}
