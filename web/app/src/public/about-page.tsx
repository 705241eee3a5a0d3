import { Button, Card, CardDescription, CardHeader, CardTitle } from '@vigil/ui';
import { ArrowRight, Compass, Eye, Gauge, Info, Lock, Scale, Target, Users } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { usePageTitle } from '../shell/page-title.js';
import { ContactSection } from './contact-section.js';
import { PageHero, Section, SectionHeading } from './page-parts.js';

const JOURNEY = [
  {
    title: 'The problem we saw',
    text: 'Compliance teams were screening customers with keyword search over spreadsheets of list extracts. Misspellings, transliterations and reversed names slipped through, and every false positive cost an analyst minutes.',
  },
  {
    title: 'What we built',
    text: 'A matching engine that understands names — aliases, scripts, word order and titles — over lists read directly from their official publishers, with every score explained token by token.',
  },
  {
    title: 'Where we are going',
    text: 'Continuous screening as a utility: every list change re-checked against every monitored customer, with a record an examiner can follow from alert to decision.',
  },
];

const VALUES = [
  { icon: Scale, title: 'Explainable by default', text: 'A match you cannot explain is a match you cannot defend. Every result shows why it scored.' },
  { icon: Lock, title: 'Security first', text: 'Keys are shown once and stored hashed; every account action is logged; least privilege everywhere.' },
  { icon: Gauge, title: 'Fast enough to be invisible', text: 'Screening belongs inside onboarding and payment flows, so it has to answer in real time.' },
  { icon: Users, title: 'Built with analysts', text: 'The people who review hits shape the product: fewer false positives, clearer evidence.' },
];

const PRINCIPLES = [
  'Read lists from the official publisher, never from a copy of a copy.',
  'Never hide a possible match to make the numbers look better.',
  'Tell customers what the service does not cover as clearly as what it does.',
  'Keep the customer in charge of the decision; we supply the evidence.',
];

export function AboutPage() {
  usePageTitle('About Us');
  useScrollToHash();
  return (
    <>
      <PageHero
        eyebrow="About Vigil"
        icon={Info}
        title="We help compliance teams know who they are dealing with"
        lead="Vigil is a sanctions, PEP and watch-list screening service for banks, fintechs, payment firms and crypto exchanges. We combine official list data with name matching that explains itself."
      >
        <Button asChild size="lg">
          <Link to="/services">
            Our services <ArrowRight aria-hidden />
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={{ hash: '#contact' }}>Contact us</Link>
        </Button>
      </PageHero>

      <Section labelledBy="journey-heading">
        <SectionHeading id="journey-heading" eyebrow="Our journey" title="From keyword search to explainable screening" />
        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          {JOURNEY.map((step, index) => (
            <li key={step.title} className="rounded-card border border-border bg-surface p-6 shadow-card">
              <span className="text-sm font-semibold text-primary">0{index + 1}</span>
              <h3 className="mt-2 text-lg font-semibold">{step.title}</h3>
              <p className="mt-3 text-sm leading-relaxed text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section tone="surface" labelledBy="values-heading">
        <SectionHeading id="values-heading" eyebrow="Values" title="What we hold ourselves to" />
        <div className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map(({ icon: Icon, title, text }) => (
            <Card key={title}>
              <CardHeader>
                <span className="mb-2 flex size-10 items-center justify-center rounded-xl bg-primary-soft text-primary">
                  <Icon className="size-5" aria-hidden />
                </span>
                <CardTitle className="text-base">{title}</CardTitle>
                <CardDescription className="leading-relaxed">{text}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
      </Section>

      <Section labelledBy="vision-heading">
        <div className="grid gap-10 lg:grid-cols-2">
          <div>
            <SectionHeading
              id="vision-heading"
              align="left"
              eyebrow="Vision"
              title="Screening that keeps pace with the lists"
              description="Sanctions lists change weekly, sometimes daily. Our vision is a screening programme that re-checks itself whenever they do, so a compliance team spends its time on decisions, not on re-running searches."
            />
            <div className="mt-8 grid gap-4 sm:grid-cols-2">
              <Card>
                <CardHeader>
                  <Eye className="size-5 text-primary" aria-hidden />
                  <CardTitle className="text-base">See every change</CardTitle>
                  <CardDescription>Designations, amendments and delistings, as published.</CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <Target className="size-5 text-primary" aria-hidden />
                  <CardTitle className="text-base">Act on what matters</CardTitle>
                  <CardDescription>Alerts only when a change produces a new possible match.</CardDescription>
                </CardHeader>
              </Card>
            </div>
          </div>
          <div className="rounded-card bg-ink p-8 text-ink-foreground shadow-float">
            <Compass className="size-6 text-sky-300" aria-hidden />
            <h3 className="mt-4 text-xl font-semibold">Founding principles</h3>
            <ul className="mt-5 space-y-4">
              {PRINCIPLES.map((principle) => (
                <li key={principle} className="flex gap-3 text-[15px] leading-relaxed text-ink-foreground/85">
                  <span aria-hidden className="mt-2 size-1.5 shrink-0 rounded-full bg-sky-300" />
                  {principle}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Section>

      <div className="border-t border-border bg-surface">
        <ContactSection />
      </div>
    </>
  );
}

/** The header's Contact Us links to /about-us#contact: scroll there once the page has rendered. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);
}
