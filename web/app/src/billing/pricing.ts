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
