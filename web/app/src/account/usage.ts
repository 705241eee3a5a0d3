export type UsageBanner = 'none' | 'notice' | 'high';
export type QuotaState = 'normal' | 'warning' | 'exceeded';
export type UsageTone = 'success' | 'warning' | 'destructive';

export type UsageView = { percent: number; banner: UsageBanner; quota: QuotaState; tone: UsageTone; message: string | null };

/**
 * Spec §4 and §2 "Account / billing": usage percent = usage / quota, rounded;
 * banners at 75% ("Usage Notice") and 90% ("High Usage Warning"); quota state
 * exceeded at 100%, warning at 80%; text green below 80, yellow from 80, red from 90.
 */
export function usageView(usage: number, quota: number): UsageView {
  const percent = quota > 0 ? Math.round((usage / quota) * 100) : 0;
  const banner: UsageBanner = percent >= 90 ? 'high' : percent >= 75 ? 'notice' : 'none';
  const quotaState: QuotaState = percent >= 100 ? 'exceeded' : percent >= 80 ? 'warning' : 'normal';
  const tone: UsageTone = percent >= 90 ? 'destructive' : percent >= 80 ? 'warning' : 'success';
  const message = percent >= 90 ? 'Quota almost exhausted!' : percent >= 80 ? 'Quota usage high' : null;
  return { percent, banner, quota: quotaState, tone, message };
}
