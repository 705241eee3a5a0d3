import type { Plan } from '@vigil/proto';
import {
  Alert,
  AlertDescription,
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  toast,
} from '@vigil/ui';
import { Loader2, LogIn } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '@vigil/ui/session';
import { useCreateCheckoutSessionMutation, useGetSubscriptionQuery } from './billing.api.js';
import { formatUsd } from './pricing.js';
import { rememberSelectedPlan } from './selected-plan.js';

/** Spec "Subscribe dialog": signed-in users confirm their e-mail and go to checkout; others are sent to sign in. */
export function SubscribeDialog({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  const { status, user } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState(user?.email ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [createCheckout, { isLoading }] = useCreateCheckoutSessionMutation();
  const signedIn = status === 'authenticated';
  // A subscriber changes plan through an upgrade, not a second checkout.
  const subscription = useGetSubscriptionQuery(undefined, { skip: !signedIn || plan === null });

  if (plan === null) return null;
  const subscribed = subscription.data?.hasSubscription === true;

  const goToLogin = () => {
    rememberSelectedPlan(plan.tier);
    navigate('/login', { state: { from: '/onboarding' } });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!signedIn) {
      toast({
        title: 'Authentication Required',
        description: 'Please log in to subscribe to a plan.',
        variant: 'destructive',
      });
      goToLogin();
      return;
    }
    const trimmed = email.trim();
    if (trimmed === '') {
      setEmailError('Please enter your email address to continue.');
      toast({
        title: 'Email Required',
        description: 'Please enter your email address to continue.',
        variant: 'destructive',
      });
      return;
    }
    try {
      const { url } = await createCheckout({ tier: plan.tier, clientEmail: trimmed }).unwrap();
      window.location.assign(url);
    } catch {
      toast({
        title: 'Checkout Failed',
        description: 'Unable to start checkout process. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogTitle>Subscribe to {plan.name}</DialogTitle>
        <DialogDescription>
          {formatUsd(plan.priceUsdPerMonth)} per month · {plan.monthlyQuota.toLocaleString('en-US')} screening calls
        </DialogDescription>
        {signedIn && subscribed ? (
          <div className="mt-6 flex flex-col gap-4" data-testid="already-subscribed">
            <Alert tone="info">
              <AlertDescription>
                You already have a subscription. Upgrading keeps your account, key and history and charges only the
                difference for the rest of this billing period.
              </AlertDescription>
            </Alert>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button asChild>
                <Link to="/upgrade">Upgrade Plan</Link>
              </Button>
            </div>
          </div>
        ) : signedIn ? (
          <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-4">
            <div className="flex flex-col gap-2">
              <Label htmlFor="subscribe-email">Billing email</Label>
              <Input
                id="subscribe-email"
                type="email"
                required
                autoComplete="email"
                value={email}
                aria-invalid={emailError !== null}
                aria-describedby={emailError ? 'subscribe-email-error' : undefined}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setEmailError(null);
                }}
              />
              {emailError && (
                <p id="subscribe-email-error" className="text-sm text-destructive-foreground">
                  {emailError}
                </p>
              )}
            </div>
            <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={isLoading}>
                {isLoading && <Loader2 className="animate-spin" aria-hidden />} Continue to Payment
              </Button>
            </div>
          </form>
        ) : (
          <div className="mt-6 flex flex-col gap-4">
            <Alert tone="info">
              <LogIn aria-hidden />
              <AlertDescription>
                Please log in to subscribe to a plan. New to Vigil? You can create an account there.
              </AlertDescription>
            </Alert>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={goToLogin}>Go to Login</Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
