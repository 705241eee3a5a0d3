import type { Plan, Tier } from '@vigil/proto';
import { Badge, Card, cn } from '@vigil/ui';
import { Check, Minus, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { feedLabel } from '../public/feed-labels.js';
import { formatCount, formatUsd, type BillingPeriod } from './pricing.js';

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
  const popular = plan.mostPopular;
  // Both prices come from the catalogue, so the two web apps and billing cannot disagree.
  const price = period === 'monthly' ? plan.priceUsdPerMonth : plan.priceUsdPerYear;
  const features: [string, boolean][] = [
    [`${formatCount(plan.monthlyQuota)} screening calls / month`, true],
    [`${formatCount(plan.rateLimitPerMinute)} requests / minute`, true],
    [`Response ${plan.responseTime}`, true],
    [`${plan.feeds.length} list feed${plan.feeds.length === 1 ? '' : 's'}`, true],
    ['Real-time list updates', plan.realTimeUpdates],
    ['Webhook notifications', plan.webhookNotifications],
    ['WebSocket access', plan.webSocketAccess],
    ['Dashboard access', plan.dashboardAccess],
    [plan.support, true],
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
        {features.map(([label, included]) => (
          <li key={label} className={cn('flex gap-2.5', !included && 'text-muted-foreground')}>
            {included ? (
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-label="Included:" />
            ) : (
              <Minus className="mt-0.5 size-4 shrink-0" aria-label="Not included:" />
            )}
            {label}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs text-muted-foreground">Lists: {plan.feeds.map(feedLabel).join(', ')}</p>
      {children && <div className="mt-6">{children}</div>}
    </Card>
  );
}
