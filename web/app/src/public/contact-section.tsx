import { Card, CardDescription, CardHeader, CardTitle } from '@vigil/ui';
import { ArrowUpRight, Building2 } from 'lucide-react';
import { CONTACT_POINTS, OFFICES } from './company.js';
import { Section, SectionHeading } from './page-parts.js';

export function ContactSection() {
  return (
    <Section id="contact" labelledBy="contact-heading">
      <SectionHeading
        id="contact-heading"
        eyebrow="Contact"
        title="Talk to the right team"
        description="Write to the team that can help; a person replies, usually within one business day."
      />
      <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {CONTACT_POINTS.map(({ icon: Icon, title, description, email }) => (
          <li key={title}>
            <Card className="flex h-full flex-col">
              <CardHeader className="flex-1">
                <Icon className="mb-2 size-5 text-primary" aria-hidden />
                <CardTitle className="text-base">{title}</CardTitle>
                <CardDescription>{description}</CardDescription>
                <a
                  href={`mailto:${email}`}
                  className="mt-3 inline-flex items-center gap-1 text-sm font-medium break-all text-primary hover:underline"
                >
                  {email} <ArrowUpRight className="size-3.5 shrink-0" aria-hidden />
                </a>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
      <OfficeCards />
    </Section>
  );
}

export function OfficeCards({ heading = 'Our offices' }: { heading?: string }) {
  return (
    <div className="mt-14">
      <h3 className="text-lg font-semibold">{heading}</h3>
      <ul className="mt-5 grid gap-4 md:grid-cols-3">
        {OFFICES.map((office) => (
          <li key={office.location} className="rounded-card border border-border bg-surface p-6 shadow-card">
            <div className="flex items-center gap-3">
              <span className="flex size-10 items-center justify-center rounded-xl bg-primary-soft text-primary">
                <Building2 className="size-5" aria-hidden />
              </span>
              <div>
                <p className="text-xs font-semibold uppercase tracking-wider text-muted-foreground">{office.region}</p>
                <p className="font-semibold">{office.location}</p>
              </div>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">{office.address}</p>
            <a href={`mailto:${office.contact}`} className="mt-1 block text-sm font-medium text-primary hover:underline">
              {office.contact}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
