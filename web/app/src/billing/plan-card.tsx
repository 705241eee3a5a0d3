import type { Plan, Tier } from '@vigil/proto';
import { Badge, Card, cn } from '@vigil/ui';
import { Check, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { feedLabel } from '../public/feed-labels.js';
import { formatCount, formatUsd, MOST_POPULAR_TIER, yearlyPrice, type BillingPeriod } from './pricing.js';

/** Who each tier is for: positioning copy, not an entitlement. */
const TAGLINES: Record<Tier, string> = {
  starter: 'For teams starting to screen customers.',
  small: 'For growing fintechs and payment firms.',
  medium: 'For regulated firms screening at scale.',
  large: 'For banks and high-volume platforms.',
};

/** One plan from the live catalogue; the action (Select Plan, or a radio in onboarding) comes from the caller. */
export function PlanCard({
  plan,
  period = 'monthly',
  selected = false,
  children,
}: {
  plan: Plan;
  period?: BillingPeriod;
  selected?: boolean;
  children?: ReactNode;
}) {
  const popular = plan.tier === MOST_POPULAR_TIER;
  const price = period === 'monthly' ? plan.priceUsdPerMonth : yearlyPrice(plan.priceUsdPerMonth);
  // Only what the live catalogue serves: a figure printed here but not sold would be a promise the backend does not make.
  const features: string[] = [
    `${formatCount(plan.monthlyQuota)} screening calls / month`,
    `${formatCount(plan.rateLimitPerMinute)} requests / minute`,
    `${plan.feeds.length} list feed${plan.feeds.length === 1 ? '' : 's'}`,
    'REST API, explained matches and audit log',
  ];
  return (
    <Card
      data-tier={plan.tier}
      className={cn(
        'relative flex h-full flex-col p-6',
        popular && 'border-primary shadow-float ring-1 ring-primary',
        selected && 'border-primary ring-2 ring-primary',
      )}
    >
      {popular && (
        <Badge tone="brand" className="absolute -top-3 left-6 border-primary bg-primary text-primary-foreground">
          <Star aria-hidden /> Most Popular
        </Badge>
      )}
      <h3 className="text-lg font-semibold">{plan.name}</h3>
      <p className="mt-1 text-sm text-muted-foreground">{TAGLINES[plan.tier]}</p>
      <p className="mt-5 flex items-baseline gap-1">
        <span className="text-4xl font-semibold tracking-tight" data-testid="plan-price">
          {formatUsd(price)}
        </span>
        <span className="text-sm text-muted-foreground">/{period === 'monthly' ? 'month' : 'year'}</span>
      </p>
      {period === 'yearly' && (
        <p className="mt-1 text-xs font-medium text-success-foreground">
          {formatUsd(plan.priceUsdPerMonth * 12)} billed monthly · save 20%
        </p>
      )}
      <ul className="mt-6 flex-1 space-y-2.5 text-sm">
        {features.map((label) => (
          <li key={label} className="flex gap-2.5">
            <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
            {label}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs text-muted-foreground">Lists: {plan.feeds.map(feedLabel).join(', ')}</p>
      {children && <div className="mt-6">{children}</div>}
    </Card>
  );
}
