import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '@vigil/ui';
import {
  ArrowRight,
  BellRing,
  Briefcase,
  ClipboardCheck,
  Code2,
  Globe2,
  Handshake,
  LifeBuoy,
  Mail,
  Megaphone,
  RefreshCw,
  ScrollText,
  SearchCheck,
  Settings2,
  ShieldCheck,
  Sparkles,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { PlatformStatus } from '../health/platform-status.js';
import { CONTACT_LINK } from '../shell/nav-links.js';
import { usePageTitle } from '../shell/page-title.js';
import { curlCommand, SCREEN_SAMPLE } from '../docs/samples.js';

type Feature = { icon: LucideIcon; title: string; description: string };

const FEATURES: Feature[] = [
  {
    icon: Globe2,
    title: 'Global watch lists',
    description:
      'Sanctions, PEP and enforcement lists from the US, EU, UN, UK and other authorities, screened in one request.',
  },
  {
    icon: RefreshCw,
    title: 'Real-time list updates',
    description:
      'New designations and delistings are picked up as the publishers release them, so results follow the current lists.',
  },
  {
    icon: Sparkles,
    title: 'AI-assisted fuzzy matching',
    description:
      'Finds a name through misspellings, aliases, transliterations and reversed name order, and explains every match.',
  },
  {
    icon: BellRing,
    title: 'Continuous re-screening',
    description:
      'Keep customers on monitoring lists and get an alert when a list change produces a new possible match.',
  },
  {
    icon: ScrollText,
    title: 'Audit logs',
    description:
      'Every screening, review decision and account action is recorded, ready for your auditor or regulator.',
  },
  {
    icon: Code2,
    title: 'API and dashboard',
    description: 'Integrate through the REST API, or screen single names and batches from the web dashboard.',
  },
];

type Step = { icon: LucideIcon; title: string; description: string };

const STEPS: Step[] = [
  {
    icon: ClipboardCheck,
    title: 'Data assessment',
    description:
      'We look at the customers, counterparties and jurisdictions you screen and choose the lists and thresholds that fit.',
  },
  {
    icon: Settings2,
    title: 'Implementation',
    description: 'Connect with an API key in an afternoon, or start in the dashboard while your engineers integrate.',
  },
  {
    icon: SearchCheck,
    title: 'Ongoing monitoring',
    description:
      'Re-screen your book as lists change, review possible matches and keep a complete record of every decision.',
  },
];

const LIST_SOURCES = [
  'OFAC Specially Designated Nationals',
  'OFAC Consolidated Sanctions',
  'UN Security Council Consolidated List',
  'UK OFSI Consolidated List',
  'US Consolidated Screening List',
  'US BIS Denied Persons List',
];

type Testimonial = { name: string; role: string; company: string; content: string; initials: string };

// The specification ships these as a static sample; they are labelled as such on the page.
const SAMPLE_TESTIMONIALS: Testimonial[] = [
  {
    name: 'Compliance lead',
    role: 'Head of Financial Crime',
    company: 'Digital bank',
    content:
      'Reversed and misspelled names used to slip past our old keyword search. Seeing why each match scored the way it did made reviews much faster.',
    initials: 'CL',
  },
  {
    name: 'Risk manager',
    role: 'Risk & Compliance',
    company: 'Payments fintech',
    content:
      'We screen at onboarding through the API and let monitoring lists catch the changes afterwards. One integration covered both.',
    initials: 'RM',
  },
  {
    name: 'MLRO',
    role: 'Money Laundering Reporting Officer',
    company: 'Crypto exchange',
    content:
      'The audit log answers the question every examiner asks first: who reviewed this hit, when, and what did they decide.',
    initials: 'ML',
  },
];

type ContactPoint = { icon: LucideIcon; title: string; description: string };

const CONTACT_POINTS: ContactPoint[] = [
  {
    icon: Handshake,
    title: 'Partnerships',
    description: 'Resell, embed or integrate Vigil screening in your platform.',
  },
  { icon: Megaphone, title: 'Media', description: 'Press enquiries and interview requests.' },
  { icon: Briefcase, title: 'Careers', description: 'Join the team building Vigil.' },
  { icon: Mail, title: 'General inquiry', description: 'Questions about plans, coverage or onboarding.' },
  { icon: LifeBuoy, title: 'Support', description: 'Help with your account, API key or integration.' },
];

export function HomePage() {
  usePageTitle('Sanctions and PEP screening');
  return (
    <>
      <Hero />
      <Features />
      <IntegrationSteps />
      <StatusAndSources />
      <Testimonials />
      <SecureYourBusiness />
      <ContactCards />
    </>
  );
}

function SectionHeading({
  eyebrow,
  title,
  description,
  id,
}: {
  eyebrow: string;
  title: string;
  description: string;
  id?: string;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-wider text-primary">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-foreground sm:text-4xl">
        {title}
      </h2>
      <p className="mt-4 text-base leading-relaxed text-muted-foreground">{description}</p>
    </div>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden border-b border-border bg-surface pt-36 pb-20 sm:pt-40 sm:pb-24">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_70%_-10%,var(--color-primary-soft),transparent_70%)]"
      />
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] bg-[size:56px_56px] opacity-40 [mask-image:radial-gradient(ellipse_at_top,black_20%,transparent_70%)]"
      />
      <div className="relative mx-auto grid max-w-6xl items-center gap-14 px-6 lg:grid-cols-[1.1fr_1fr]">
        <div>
          <Badge tone="brand" className="px-3 py-1">
            <ShieldCheck aria-hidden /> Sanctions, PEP and watch-list screening
          </Badge>
          <h1 className="mt-6 text-4xl font-semibold tracking-tight text-ink sm:text-5xl lg:text-[3.4rem] lg:leading-[1.08]">
            Screen every name against the lists that matter
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-muted-foreground">
            Vigil checks customers and counterparties against sanctions, PEP and watch lists through one REST API and a
            web dashboard, so your KYC and AML controls keep pace with every list update.
          </p>
          <div className="mt-9 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to={CONTACT_LINK}>
                Start Free API Trial <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/docs">Read the Docs</Link>
            </Button>
          </div>
          <p className="mt-6 text-sm text-muted-foreground">
            Built for compliance officers, risk teams, banks, fintechs and crypto exchanges.
          </p>
        </div>
        <ExampleRequest />
      </div>
    </section>
  );
}

function ExampleRequest() {
  return (
    <figure className="overflow-hidden rounded-2xl border border-ink/10 bg-ink text-ink-foreground shadow-float">
      <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3">
        <span className="size-2.5 rounded-full bg-white/20" />
        <span className="size-2.5 rounded-full bg-white/20" />
        <span className="size-2.5 rounded-full bg-white/20" />
        <figcaption className="ml-2 text-xs text-ink-foreground/60">
          Example request · {SCREEN_SAMPLE.method} {SCREEN_SAMPLE.path}
        </figcaption>
      </div>
      <pre className="overflow-x-auto p-5 font-mono text-[13px] leading-6">
        <span className="text-ink-foreground/50" aria-hidden>
          ${' '}
        </span>
        <code data-sample={SCREEN_SAMPLE.id}>{curlCommand(SCREEN_SAMPLE)}</code>
      </pre>
    </figure>
  );
}

function Features() {
  return (
    <section aria-labelledby="features-heading" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="features-heading"
          eyebrow="Capabilities"
          title="Everything a screening programme needs"
          description="From the first onboarding check to continuous monitoring, in one service your compliance and engineering teams can share."
        />
        <div className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <Card key={title} className="transition-shadow hover:shadow-float">
              <CardHeader>
                <span className="mb-2 flex size-11 items-center justify-center rounded-xl bg-primary-soft text-primary">
                  <Icon className="size-5" aria-hidden />
                </span>
                <CardTitle>{title}</CardTitle>
                <CardDescription className="leading-relaxed">{description}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
      </div>
    </section>
  );
}

function IntegrationSteps() {
  return (
    <section aria-labelledby="steps-heading" className="border-y border-border bg-surface py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="steps-heading"
          eyebrow="How it works"
          title="From assessment to ongoing monitoring"
          description="Three steps take you from the lists you need to a screening programme that runs itself."
        />
        <ol className="mt-14 grid gap-8 md:grid-cols-3">
          {STEPS.map(({ icon: Icon, title, description }, index) => (
            <li key={title} className="relative flex flex-col gap-4 rounded-2xl border border-border bg-background p-6">
              <div className="flex items-center gap-3">
                <span className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                  {index + 1}
                </span>
                <Icon className="size-5 text-primary" aria-hidden />
              </div>
              <h3 className="text-lg font-semibold">{title}</h3>
              <p className="text-sm leading-relaxed text-muted-foreground">{description}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function StatusAndSources() {
  return (
    <section aria-labelledby="status-heading" className="py-20 sm:py-24">
      <div className="mx-auto grid max-w-6xl items-start gap-12 px-6 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-primary">Transparency</p>
          <h2 id="status-heading" className="mt-3 text-3xl font-semibold tracking-tight sm:text-4xl">
            Live platform status
          </h2>
          <p className="mt-4 text-base leading-relaxed text-muted-foreground">
            The panel shows what the Vigil gateway reports right now for each of its services, refreshed every few
            seconds. Nothing here is a marketing number.
          </p>
          <h3 className="mt-10 text-sm font-semibold text-foreground">Screening data from official list publishers</h3>
          <ul aria-label="List sources" className="mt-4 flex flex-wrap gap-2">
            {LIST_SOURCES.map((source) => (
              <li key={source}>
                <Badge tone="outline" className="bg-surface px-3 py-1.5 text-[13px] font-medium">
                  {source}
                </Badge>
              </li>
            ))}
          </ul>
          <Button asChild variant="link" className="mt-5">
            <Link to="/watchlists">
              See every watchlist <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
        <PlatformStatus />
      </div>
    </section>
  );
}

function Testimonials() {
  return (
    <section aria-labelledby="testimonials-heading" className="border-y border-border bg-surface py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="testimonials-heading"
          eyebrow="Use cases"
          title="How compliance teams put Vigil to work"
          description="Sample testimonials that illustrate typical use; they are not statements from named customers."
        />
        <div className="mt-14 grid gap-5 md:grid-cols-3">
          {SAMPLE_TESTIMONIALS.map((testimonial) => (
            <Card key={testimonial.initials} className="flex flex-col">
              <CardContent className="flex flex-1 flex-col gap-6 pt-6">
                <blockquote className="flex-1 text-[15px] leading-relaxed text-foreground">
                  “{testimonial.content}”
                </blockquote>
                <div className="flex items-center gap-3">
                  <span
                    aria-hidden
                    className="flex size-10 items-center justify-center rounded-full bg-primary-soft text-sm font-semibold text-primary"
                  >
                    {testimonial.initials}
                  </span>
                  <div className="text-sm">
                    <p className="font-semibold">{testimonial.name}</p>
                    <p className="text-muted-foreground">
                      {testimonial.role}, {testimonial.company}
                    </p>
                  </div>
                  <Badge className="ml-auto">Sample</Badge>
                </div>
              </CardContent>
            </Card>
          ))}
        </div>
      </div>
    </section>
  );
}

function SecureYourBusiness() {
  return (
    <section aria-labelledby="secure-heading" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-6">
        <div className="relative overflow-hidden rounded-3xl bg-ink px-8 py-14 text-center text-ink-foreground shadow-float sm:px-16">
          <div
            aria-hidden
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_20rem_at_50%_0%,oklch(0.45_0.17_264/0.55),transparent_70%)]"
          />
          <div className="relative">
            <h2 id="secure-heading" className="text-3xl font-semibold tracking-tight sm:text-4xl">
              Secure Your Business
            </h2>
            <p className="mx-auto mt-4 max-w-2xl text-base leading-relaxed text-ink-foreground/75">
              Start screening customers and counterparties today, and keep screening them as the lists change.
            </p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <Button asChild size="lg" variant="inverse">
                <Link to="/login">
                  Get Started <ArrowRight aria-hidden />
                </Link>
              </Button>
              <Button asChild size="lg" variant="ghost" className="text-ink-foreground hover:bg-white/10">
                <Link to="/services">Learn More</Link>
              </Button>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

function ContactCards() {
  return (
    <section aria-labelledby="contact-heading" className="pb-24">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="contact-heading"
          eyebrow="Contact"
          title="Talk to the right team"
          description="Offices in the United States, Germany and Japan. Tell us what you need and the right people will answer."
        />
        <div className="mt-14 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {CONTACT_POINTS.map(({ icon: Icon, title, description }) => (
            <Card key={title} className="flex flex-col">
              <CardHeader className="flex-1">
                <Icon className="mb-2 size-5 text-primary" aria-hidden />
                <CardTitle className="text-base">{title}</CardTitle>
                <CardDescription>{description}</CardDescription>
              </CardHeader>
              <CardContent>
                <Link
                  to={CONTACT_LINK}
                  className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
                >
                  Get in touch <ArrowRight className="size-3.5" aria-hidden />
                </Link>
              </CardContent>
            </Card>
          ))}
        </div>
      </div>
    </section>
  );
}
