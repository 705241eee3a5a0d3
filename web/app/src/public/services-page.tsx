import { Button, Card, CardDescription, CardHeader, CardTitle } from '@vigil/ui';
import { ArrowRight, ChevronDown, Clock, Headphones, Layers, MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CONTACT_LINK } from '../shell/nav-links.js';
import { usePageTitle } from '../shell/page-title.js';
import { OfficeCards } from './contact-section.js';
import { PageHero, Section, SectionHeading } from './page-parts.js';
import { CAPABILITIES, RISKS, SANCTION_TYPES, WORKFLOW, type SanctionType } from './services-content.js';

export function ServicesPage() {
  usePageTitle('Services');
  return (
    <>
      <PageHero
        eyebrow="Services"
        icon={Layers}
        title="Sanctions screening for every point in the customer lifecycle"
        lead="Screen at onboarding, at payment time and continuously afterwards, through one API or the web dashboard, against lists read directly from their official publishers."
      >
        <Button asChild size="lg">
          <Link to="/pricing">
            See plans <ArrowRight aria-hidden />
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/docs">API documentation</Link>
        </Button>
      </PageHero>

      <Section labelledBy="capabilities-heading">
        <SectionHeading id="capabilities-heading" eyebrow="Capabilities" title="What Vigil does for your team" />
        <div className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {CAPABILITIES.map(({ icon: Icon, title, description }) => (
            <Card key={title}>
              <CardHeader>
                <span className="mb-2 flex size-11 items-center justify-center rounded-xl bg-primary-soft text-primary">
                  <Icon className="size-5" aria-hidden />
                </span>
                <CardTitle className="text-base">{title}</CardTitle>
                <CardDescription className="leading-relaxed">{description}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
      </Section>

      <Section tone="surface" labelledBy="workflow-heading">
        <SectionHeading
          id="workflow-heading"
          eyebrow="Workflow"
          title="Real-Time AML Compliance Workflow"
          description="Four steps, from the first data point you capture to a customer who stays screened."
        />
        <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {WORKFLOW.map(({ icon: Icon, title, description }, index) => (
            <li key={title} className="rounded-2xl border border-border bg-background p-6">
              <div className="flex items-center gap-3">
                <span className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                  {index + 1}
                </span>
                <Icon className="size-5 text-primary" aria-hidden />
              </div>
              <h3 className="mt-4 text-lg font-semibold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{description}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section labelledBy="sanction-types-heading">
        <SectionHeading
          id="sanction-types-heading"
          eyebrow="Coverage"
          title="Four kinds of sanctions, one screening service"
          description="Open any card for the detail; several can be open at once."
        />
        <div className="mt-12 grid items-start gap-5 md:grid-cols-2">
          {SANCTION_TYPES.map((type) => (
            <SanctionTypeCard key={type.id} type={type} />
          ))}
        </div>
        <div className="mt-10 flex justify-center">
          <Button asChild variant="outline" size="lg">
            <Link to="/watchlists">
              View All Watchlists <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </Section>

      <Section tone="surface" labelledBy="risks-heading">
        <SectionHeading id="risks-heading" eyebrow="Why it matters" title="The cost of a missed match" />
        <div className="mt-12 grid gap-5 md:grid-cols-3">
          {RISKS.map(({ icon: Icon, title, description }) => (
            <div key={title} className="rounded-card border border-destructive/15 bg-background p-6">
              <Icon className="size-6 text-destructive" aria-hidden />
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{description}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section labelledBy="support-heading">
        <SectionHeading id="support-heading" eyebrow="Support" title="Sanctions Screening API Support" />
        <div className="mt-12 grid gap-5 md:grid-cols-3">
          <Card>
            <CardHeader>
              <Clock className="size-5 text-primary" aria-hidden />
              <CardTitle className="text-base">Support around the clock</CardTitle>
              <CardDescription>Large-plan customers reach an engineer 24/7; every plan gets email support.</CardDescription>
            </CardHeader>
          </Card>
          <Card>
            <CardHeader>
              <MessagesSquare className="size-5 text-primary" aria-hidden />
              <CardTitle className="text-base">Talk to sales</CardTitle>
              <CardDescription>Volume pricing, procurement questionnaires and security reviews.</CardDescription>
            </CardHeader>
          </Card>
          <Card className="border-primary/30 bg-primary-soft/40">
            <CardHeader>
              <Headphones className="size-5 text-primary" aria-hidden />
              <CardTitle className="text-base">Start Your Free API Trial</CardTitle>
              <CardDescription>Tell us what you screen and we will set you up with a trial key.</CardDescription>
              <Button asChild className="mt-3 self-start">
                <Link to={CONTACT_LINK}>Contact Us</Link>
              </Button>
            </CardHeader>
          </Card>
        </div>
        <OfficeCards heading="Global Sanctions Screening Support" />
      </Section>
    </>
  );
}

function SanctionTypeCard({ type }: { type: SanctionType }) {
  const [open, setOpen] = useState(false);
  const Icon = type.icon;
  const detailId = `sanction-${type.id}-detail`;
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-3">
          <span className="flex size-11 items-center justify-center rounded-xl bg-primary-soft text-primary">
            <Icon className="size-5" aria-hidden />
          </span>
          <CardTitle>{type.title}</CardTitle>
        </div>
        <CardDescription className="mt-2 leading-relaxed">{type.description}</CardDescription>
        {open && (
          <div id={detailId} className="mt-4 space-y-4 border-t border-border pt-4 text-sm">
            <p className="leading-relaxed text-foreground/90">{type.overview}</p>
            <DetailList title="Key features" items={type.keyFeatures} />
            <DetailList title="Compliance benefits" items={type.complianceBenefits} />
            <DetailList title="Use cases" items={type.useCases} />
          </div>
        )}
        <Button
          variant="link"
          className="mt-3 self-start"
          aria-expanded={open}
          aria-controls={detailId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Show Less' : 'Learn More'}
          <ChevronDown className={open ? 'rotate-180 transition-transform' : 'transition-transform'} aria-hidden />
        </Button>
      </CardHeader>
    </Card>
  );
}

export function DetailList({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h4 className="font-semibold">{title}</h4>
      <ul className="mt-1.5 space-y-1 text-muted-foreground">
        {items.map((item) => (
          <li key={item} className="flex gap-2">
            <span aria-hidden className="mt-2 size-1 shrink-0 rounded-full bg-primary" />
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}
