import type { SubscriptionStatus, Tier } from '@vigil/proto';
import { Badge } from '@vigil/ui';

const TIER_LABEL: Readonly<Record<Tier, string>> = {
  starter: 'Starter',
  small: 'Small',
  medium: 'Medium',
  large: 'Large',
};

export function TierBadge({ tier }: { tier: Tier }) {
  return (
    <Badge tone="outline" data-tier={tier}>
      {TIER_LABEL[tier]}
    </Badge>
  );
}

/** Spec §4: admin views show active with the default styling and anything else as destructive. */
export function SubscriptionBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <Badge tone={status === 'active' ? 'neutral' : 'destructive'} data-subscription={status}>
      {status}
    </Badge>
  );
}

export function tierLabel(tier: Tier): string {
  return TIER_LABEL[tier];
}
