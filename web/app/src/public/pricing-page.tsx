import type { Plan } from '@vigil/proto';
import {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
  Button,
  cn,
  LoadError,
  Loading,
} from '@vigil/ui';
import { ArrowRight, BadgeDollarSign, Clock4, FileSearch, Globe2, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useGetPlansQuery } from '../billing/billing.api.js';
import { PlanCard } from '../billing/plan-card.js';
import type { BillingPeriod } from '../billing/pricing.js';
import { SubscribeDialog } from '../billing/subscribe-dialog.js';
import { CONTACT_LINK } from '../shell/nav-links.js';
import { usePageTitle } from '../shell/page-title.js';
import { PageHero, Section, SectionHeading } from './page-parts.js';

const HIGHLIGHTS = [
  {
    icon: Globe2,
    title: 'Official sources',
    text: 'Lists read from the publishers themselves: OFAC, the UN, the UK and more.',
  },
  { icon: FileSearch, title: 'Explained matches', text: 'Every possible match shows which tokens matched and why.' },
  {
    icon: Clock4,
    title: 'Updated as published',
    text: 'New list versions are loaded as they appear, with a record of each.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure by design',
    text: 'Keys stored hashed, every action audited, data encrypted in transit.',
  },
];

const FAQ = [
  [
    'Can I change plans later?',
    'Yes. Upgrades take effect immediately with a prorated charge for the rest of the billing period, and your quota rises at once. Downgrades are made from the billing portal and apply from the next period.',
  ],
  [
    'What counts as a screening call?',
    'Each name screened counts as one call, whether it comes through the API or the dashboard. A bulk request of 100 names counts as 100 calls.',
  ],
  [
    'What happens when I reach my monthly quota?',
    'You are warned at 80% and again at 100%. Then further API calls are refused (429 QUOTA_EXCEEDED) until the quota resets at the start of your next billing period, which GET /api/v1/status gives as periodEnd, or until you upgrade.',
  ],
  [
    'Which lists does my plan include?',
    'Each plan lists its feeds on its card. Starter covers OFAC and PEPs; Large covers every feed, including UK disqualified directors.',
  ],
  ['How is yearly billing priced?', 'Yearly billing is twelve months at 20% off, rounded to whole dollars.'],
  ['Is there a trial?', 'Yes. Contact us and we will set up a trial key so you can test the API with your own data.'],
] as const;

export function PricingPage() {
  usePageTitle('Pricing');
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const [selected, setSelected] = useState<Plan | null>(null);
  const plans = useGetPlansQuery();

  return (
    <>
      <PageHero
        eyebrow="Pricing"
        icon={BadgeDollarSign}
        title="Plans that grow with your screening volume"
        lead="Every plan includes the REST API, explained matches and audit logs. Choose by monthly volume, speed and the lists you need."
      />

      <Section labelledBy="plans-heading">
        <div className="flex flex-col items-center gap-4">
          <h2 id="plans-heading" className="sr-only">
            Plans
          </h2>
          <div role="radiogroup" aria-label="Billing period" className="inline-flex rounded-xl bg-muted p-1">
            {(['monthly', 'yearly'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={period === value}
                onClick={() => setPeriod(value)}
                className={cn(
                  'cursor-pointer rounded-lg px-4 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring',
                  period === value
                    ? 'bg-surface text-foreground shadow-sm'
                    : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {value === 'monthly' ? 'Monthly' : 'Yearly'}
                {value === 'yearly' && (
                  <span className="ml-2 text-xs font-semibold text-success-foreground">20% off</span>
                )}
              </button>
            ))}
          </div>
        </div>

        <div className="mt-12">
          {plans.isLoading ? (
            <Loading label="Loading plans..." />
          ) : plans.isError ? (
            <LoadError
              title="The plan catalogue could not be loaded"
              error={plans.error}
              onRetry={() => void plans.refetch()}
            />
          ) : plans.data && plans.data.plans.length > 0 ? (
            <div className="grid gap-6 pt-3 sm:grid-cols-2 xl:grid-cols-4">
              {plans.data.plans.map((plan) => (
                <PlanCard key={plan.tier} plan={plan} period={period}>
                  <Button
                    className="w-full"
                    variant={plan.mostPopular ? 'primary' : 'outline'}
                    onClick={() => setSelected(plan)}
                    aria-label={`Select Plan: ${plan.name}`}
                  >
                    Select Plan
                  </Button>
                </PlanCard>
              ))}
            </div>
          ) : (
            <p className="text-center text-muted-foreground">No plans are on sale right now.</p>
          )}
        </div>

        <div className="mt-10 flex flex-col items-center justify-center gap-3 rounded-card border border-border bg-surface p-6 text-center sm:flex-row sm:justify-between sm:text-left">
          <div>
            <p className="font-semibold">Need more than 100,000 calls a month, or a custom contract?</p>
            <p className="text-sm text-muted-foreground">Talk to us about volume pricing, or try the API first.</p>
          </div>
          <div className="flex gap-2">
            <Button asChild variant="outline">
              <Link to={CONTACT_LINK}>Contact Sales</Link>
            </Button>
            <Button asChild>
              <Link to={CONTACT_LINK}>
                Start Free Trial <ArrowRight aria-hidden />
              </Link>
            </Button>
          </div>
        </div>
      </Section>

      <Section tone="surface" labelledBy="highlights-heading">
        <SectionHeading
          id="highlights-heading"
          eyebrow="Included in every plan"
          title="The essentials, on every tier"
        />
        <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
            <div key={title}>
              <Icon className="size-6 text-primary" aria-hidden />
              <h3 className="mt-3 font-semibold">{title}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section labelledBy="faq-heading">
        <SectionHeading id="faq-heading" eyebrow="FAQ" title="Questions about plans and billing" />
        <Accordion type="single" collapsible className="mx-auto mt-10 max-w-3xl">
          {FAQ.map(([question, answer]) => (
            <AccordionItem key={question} value={question}>
              <AccordionTrigger>{question}</AccordionTrigger>
              <AccordionContent>{answer}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </Section>

      <SubscribeDialog key={selected?.tier ?? 'none'} plan={selected} onClose={() => setSelected(null)} />
    </>
  );
}
