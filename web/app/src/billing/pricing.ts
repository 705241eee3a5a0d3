/** Spec §9: yearly = 12 months at 20% off, rounded to whole dollars. */
export const YEARLY_DISCOUNT = 0.2;

export function yearlyPrice(monthly: number): number {
  return Math.round(12 * (1 - YEARLY_DISCOUNT) * monthly);
}

export type BillingPeriod = 'monthly' | 'yearly';

export function formatUsd(amount: number, fractionDigits = 0): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(amount);
}

export const formatCount = (value: number) => new Intl.NumberFormat('en-US').format(value);

/** The spec's "Most Popular" plan. */
export const MOST_POPULAR_TIER = 'medium';
