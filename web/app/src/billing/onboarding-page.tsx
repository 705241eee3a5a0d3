import type { Plan } from '@vigil/proto';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label, toast, LoadError, Loading } from '@vigil/ui';
import { ArrowLeft, ArrowRight, CreditCard, KeyRound, Loader2, LogOut, ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../app/hooks.js';
import { SCREENING_HOME } from '../auth/post-sign-in.js';
import { checkSubscription } from '../auth/subscription.js';
import { useAuth } from '@vigil/ui/session';
import { useSignOut } from '../auth/use-sign-out.js';
import { usePageTitle } from '../shell/page-title.js';
import { useCreateCheckoutSessionMutation, useGetPlansQuery } from './billing.api.js';
import { PlanCard } from './plan-card.js';
import { formatUsd } from './pricing.js';
import { readSelectedPlan, rememberSelectedPlan } from './selected-plan.js';
import { StepIndicator } from './step-indicator.js';

const STEPS = ['Choose Plan', 'Payment', 'Get API Key'] as const;
/** Spec §9: an existing subscriber sees the welcome toast, then moves on after 1 s. */
const ONBOARDING_REDIRECT_MS = 1000;

export function OnboardingPage() {
  usePageTitle('Get Started');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [params] = useSearchParams();
  const [step, setStep] = useState(params.get('step') === 'key' ? 2 : params.get('step') === 'payment' && readSelectedPlan() ? 1 : 0);
  const [tier, setTier] = useState(readSelectedPlan);
  const plans = useGetPlansQuery();
  const selectedPlan = plans.data?.plans.find((plan) => plan.tier === tier) ?? null;

  useEffect(() => {
    let timer: number | undefined;
    checkSubscription(dispatch)
      .then(({ hasSubscription }) => {
        if (!hasSubscription || params.get('step') === 'key') return;
        toast({ title: 'Welcome Back!', description: 'You already have an active subscription. Redirecting to dashboard...' });
        timer = window.setTimeout(() => navigate(SCREENING_HOME, { replace: true }), ONBOARDING_REDIRECT_MS);
      })
      .catch(() => undefined);
    return () => window.clearTimeout(timer);
  }, [dispatch, navigate, params]);

  return (
    <div className="mx-auto max-w-6xl px-6 pt-28 pb-20 sm:pt-32">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <p className="text-sm font-semibold text-primary">Get started</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight">Set up your Vigil subscription</h1>
        </div>
        <Button variant="ghost" onClick={() => void signOut()}>
          <LogOut aria-hidden /> Sign Out
        </Button>
      </div>
      <div className="mt-8">
        <StepIndicator steps={STEPS} current={step} />
      </div>

      {step === 0 && (
        <section className="mt-10" aria-labelledby="choose-plan-heading">
          <h2 id="choose-plan-heading" className="text-xl font-semibold">
            Choose your plan
          </h2>
          <div className="mt-6">
            {plans.isLoading ? (
              <Loading label="Loading plans..." />
            ) : plans.isError ? (
              <LoadError title="The plan catalogue could not be loaded" error={plans.error} onRetry={() => void plans.refetch()} />
            ) : (
              <div role="radiogroup" aria-label="Plans" className="grid gap-6 pt-3 sm:grid-cols-2 xl:grid-cols-4">
                {plans.data?.plans.map((plan) => (
                  <button
                    key={plan.tier}
                    type="button"
                    role="radio"
                    aria-checked={plan.tier === tier}
                    aria-label={plan.name}
                    onClick={() => {
                      // Kept for the tab, so "Try Again" after a cancelled payment comes back to it.
                      rememberSelectedPlan(plan.tier);
                      setTier(plan.tier);
                    }}
                    className="cursor-pointer rounded-card text-left focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring"
                  >
                    <PlanCard plan={plan} selected={plan.tier === tier} />
                  </button>
                ))}
              </div>
            )}
          </div>
          <div className="mt-8 flex justify-end">
            <Button
              size="lg"
              disabled={selectedPlan === null}
              onClick={() => {
                if (selectedPlan) setStep(1);
              }}
            >
              Proceed to Payment <ArrowRight aria-hidden />
            </Button>
          </div>
        </section>
      )}

      {step === 1 && selectedPlan && <PaymentStep plan={selectedPlan} onBack={() => setStep(0)} />}
      {step === 2 && <ApiKeyStep />}
    </div>
  );
}

function PaymentStep({ plan, onBack }: { plan: Plan; onBack: () => void }) {
  const { user } = useAuth();
  const [createCheckout, { isLoading }] = useCreateCheckoutSessionMutation();
  // The client's name in Vigil (Settings → profile can change it later); blank keeps the billing email.
  const [organisation, setOrganisation] = useState('');

  const pay = async () => {
    if (!user) {
      toast({ title: 'Authentication Required', description: 'Please log in to subscribe to a plan.', variant: 'destructive' });
      return;
    }
    try {
      const clientName = organisation.trim();
      const { url } = await createCheckout({ tier: plan.tier, clientEmail: user.email, ...(clientName ? { clientName } : {}) }).unwrap();
      window.location.assign(url);
    } catch {
      toast({ title: 'Checkout Failed', description: 'Unable to start checkout process. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <section className="mt-10 grid gap-6 lg:grid-cols-[1.3fr_1fr]" aria-labelledby="payment-heading">
      <Card>
        <CardHeader>
          <CardTitle id="payment-heading">Payment</CardTitle>
          <CardDescription>You will be taken to our payment provider's secure checkout, then brought back here.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <dl className="grid gap-3 rounded-lg bg-muted/60 p-4 text-sm">
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Plan</dt>
              <dd className="font-semibold">{plan.name}</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Price</dt>
              <dd className="font-semibold">{formatUsd(plan.priceUsdPerMonth)} / month</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Billing email</dt>
              <dd className="font-semibold break-all">{user?.email}</dd>
            </div>
          </dl>
          <div className="flex flex-col gap-2">
            <Label htmlFor="organisation-name">Organisation name (optional)</Label>
            <Input
              id="organisation-name"
              autoComplete="organization"
              maxLength={200}
              placeholder="e.g. Harbour Bank plc"
              value={organisation}
              onChange={(event) => setOrganisation(event.target.value)}
            />
            <p className="text-xs text-muted-foreground">How your organisation is named in Vigil; without one, your billing email is used.</p>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            <Button variant="outline" onClick={onBack}>
              <ArrowLeft aria-hidden /> Back to plans
            </Button>
            <Button size="lg" onClick={() => void pay()} disabled={isLoading}>
              {isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <CreditCard aria-hidden />} Continue to Payment
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card className="bg-primary-soft/40">
        <CardHeader>
          <ShieldCheck className="size-6 text-primary" aria-hidden />
          <CardTitle className="text-base">What happens next</CardTitle>
          <CardDescription className="leading-relaxed">
            After payment your API key is shown once on the confirmation page and e-mailed to you. Keep it in your secrets manager
            for your integrations; the dashboard needs only your sign-in.
          </CardDescription>
        </CardHeader>
      </Card>
    </section>
  );
}

/** The last step: the session is enough for the dashboard; the API key is for integrations (Settings). */
function ApiKeyStep() {
  const navigate = useNavigate();
  return (
    <section className="mt-10 max-w-2xl" aria-labelledby="key-heading">
      <Card>
        <CardHeader>
          <KeyRound className="size-6 text-primary" aria-hidden />
          <CardTitle id="key-heading">You're ready to screen</CardTitle>
          <CardDescription>
            The dashboard works with your sign-in. Your API key is for integrations: it was shown once after checkout, and
            Settings in the dashboard can issue a new one.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button onClick={() => navigate(SCREENING_HOME)}>Continue to Screening</Button>
          <Button variant="outline" onClick={() => navigate('/dashboard')}>
            Go to Dashboard
          </Button>
        </CardContent>
      </Card>
    </section>
  );
}
