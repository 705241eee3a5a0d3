import { LoadError, Loading } from '@vigil/ui';
import {
  Alert,
  AlertDescription,
  AlertTitle,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  Spinner,
  toast,
  errorMessage,
  isApiError,
} from '@vigil/ui';
import { CheckCircle2, Circle, Copy, CreditCard, LayoutDashboard, ListChecks, Loader2, ScanSearch, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useBackGoesToDashboard } from '../auth/back-to-dashboard.js';
import { SCREENING_HOME } from '../auth/post-sign-in.js';
import { readSelectedPlan } from './selected-plan.js';
import { useAuth } from '@vigil/ui/session';
import { usePageTitle } from '../shell/page-title.js';
import { useCompleteSandboxSessionMutation, useGetClientByEmailQuery, useGetSandboxSessionQuery } from './billing.api.js';
import { FIRST_LOOKUP_DELAY_MS, LOOKUP_RETRY_MS, processingChecklist, usagePercent } from './payment-success.js';
import { formatCount, formatUsd } from './pricing.js';

/** The sandbox provider's hosted checkout (sandbox mode only): a test card, no real money. */
export function SandboxCheckoutPage() {
  usePageTitle('Checkout');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('session_id') ?? '';
  const session = useGetSandboxSessionQuery(id, { skip: id === '' });
  const [complete, { isLoading }] = useCompleteSandboxSessionMutation();
  const [card, setCard] = useState('4242 4242 4242 4242');

  const pay = async () => {
    try {
      const { redirectUrl } = await complete({ id, cardNumber: card.replace(/\s+/g, '') }).unwrap();
      const target = new URL(redirectUrl, window.location.origin);
      navigate(`${target.pathname}${target.search}`, { replace: true });
    } catch (error) {
      toast({ title: 'Payment Error', description: errorMessage(error), variant: 'destructive' });
    }
  };

  return (
    <section className="mx-auto max-w-lg px-6 pt-32 pb-24">
      <Card>
        <CardHeader>
          <Badge tone="warning" className="self-start">Sandbox · no real payment</Badge>
          <h1 className="mt-3 text-2xl font-semibold tracking-tight">Checkout</h1>
          <CardDescription>Test checkout of the Vigil sandbox payment provider.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {id === '' ? (
            <Alert tone="destructive">
              <XCircle aria-hidden />
              <AlertDescription>This checkout link has no session. Start again from onboarding.</AlertDescription>
            </Alert>
          ) : session.isLoading ? (
            <Loading label="Loading checkout..." />
          ) : session.isError ? (
            <LoadError title="Failed to load checkout" error={session.error} onRetry={() => void session.refetch()} />
          ) : session.data ? (
            <>
              <dl className="grid gap-2 rounded-lg bg-muted/60 p-4 text-sm">
                <div className="flex justify-between">
                  <dt className="text-muted-foreground">Plan</dt>
                  <dd className="font-semibold capitalize">{session.data.tier}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-muted-foreground">Email</dt>
                  <dd className="font-semibold">{session.data.clientEmail}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-muted-foreground">Due today</dt>
                  <dd className="font-semibold">{formatUsd(session.data.amount)}</dd>
                </div>
              </dl>
              <div className="flex flex-col gap-2">
                <Label htmlFor="sandbox-card">Test card number</Label>
                <Input id="sandbox-card" inputMode="numeric" autoComplete="off" value={card} onChange={(e) => setCard(e.target.value)} />
              </div>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
                <Button variant="outline" onClick={() => navigate(`/payment/cancel?session_id=${encodeURIComponent(id)}`, { replace: true })}>
                  Cancel
                </Button>
                <Button onClick={() => void pay()} disabled={isLoading || session.data.status !== 'open'}>
                  {isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <CreditCard aria-hidden />} Pay {formatUsd(session.data.amount)}
                </Button>
              </div>
            </>
          ) : null}
        </CardContent>
      </Card>
    </section>
  );
}

/** /payment/success?session_id=…: wait for the account, then show the key once with the plan and next steps. */
export function PaymentSuccessPage() {
  usePageTitle('Payment Successful');
  useBackGoesToDashboard();
  const { user } = useAuth();
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    const timer = window.setTimeout(() => setReady(true), FIRST_LOOKUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const email = user?.email ?? '';
  const lookup = useGetClientByEmailQuery(email, { skip: !ready || email === '' });
  // A 404 for the client means "not recorded yet"; a 404 for the route itself is a real failure to show.
  const notYet = lookup.isError && isApiError(lookup.error) && lookup.error.status === 404 && lookup.error.code !== 'ROUTE_NOT_FOUND';
  // Not found yet means the payment is still being recorded: look again every 3 s until it exists.
  useEffect(() => {
    if (!notYet) return;
    const timer = window.setTimeout(() => void lookup.refetch(), LOOKUP_RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [notYet, lookup]);

  const client = lookup.data?.client;
  const phase = client ? 'ready' : ready ? 'looking' : 'waiting';

  return (
    <div className="mx-auto max-w-4xl px-6 pt-28 pb-20 sm:pt-32">
      <div className="flex items-center gap-3">
        <CheckCircle2 className="size-8 text-success" aria-hidden />
        <h1 className="text-3xl font-semibold tracking-tight">Payment successful</h1>
      </div>
      {!client && !(lookup.isError && !notYet) && (
        <Card className="mt-8">
          <CardHeader>
            <CardTitle>Setting up your account</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-3" aria-label="Processing">
              {processingChecklist(phase).map((item) => (
                <li key={item.label} className="flex items-center gap-3 text-sm">
                  {item.done ? (
                    <CheckCircle2 className="size-5 text-success" aria-label="done" />
                  ) : (
                    <Circle className="size-5 text-muted-foreground" aria-label="pending" />
                  )}
                  {item.label}
                </li>
              ))}
            </ul>
            <Spinner label="Processing your subscription..." className="mt-6 justify-start" />
          </CardContent>
        </Card>
      )}
      {lookup.isError && !notYet && (
        <div className="mt-8">
          <LoadError title="Failed to get client information" error={lookup.error} onRetry={() => void lookup.refetch()} />
        </div>
      )}
      {client && (
        <div className="mt-8 flex flex-col gap-6">
          {client.api_key ? (
            <Card className="border-success/40">
              <CardHeader>
                <CardTitle>Your API key</CardTitle>
                <CardDescription>Shown once. Store it in your secrets manager now; Vigil keeps only a hash of it.</CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center">
                <code data-testid="new-api-key" className="flex-1 rounded-lg bg-muted px-3 py-2 font-mono text-sm break-all">
                  {client.api_key}
                </code>
                <Button
                  variant="outline"
                  onClick={() => {
                    void navigator.clipboard.writeText(client.api_key ?? '').then(
                      () => {
                        setCopied(true);
                        toast({ title: 'Copied', description: 'API key copied to the clipboard.' });
                        window.setTimeout(() => setCopied(false), 2000);
                      },
                      () => toast({ title: 'Copy Failed', description: 'Your browser did not allow copying.', variant: 'destructive' }),
                    );
                  }}
                >
                  <Copy aria-hidden /> {copied ? 'Copied' : 'Copy'}
                </Button>
              </CardContent>
            </Card>
          ) : (
            <Alert tone="info">
              <AlertTitle>Your API key was already shown</AlertTitle>
              <AlertDescription>For your security a key is displayed only once. You can issue a new one from your account page.</AlertDescription>
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-4">
            <Fact label="Plan" value={<span className="capitalize">{client.tier}</span>} />
            <Fact label="Monthly quota" value={formatCount(client.quota_month)} />
            <Fact label="Used" value={`${formatCount(client.usage_month)} (${usagePercent(client.usage_month, client.quota_month)}%)`} />
            <Fact
              label="Status"
              value={<Badge tone={client.subscription_status === 'active' ? 'success' : 'warning'}>{client.subscription_status.replace('_', ' ')}</Badge>}
            />
          </div>
          <h2 className="mt-4 text-lg font-semibold">Next steps</h2>
          <div className="grid gap-4 sm:grid-cols-3">
            <NextStep to={SCREENING_HOME} icon={ScanSearch} title="Screen a name" text="Run your first screening from the dashboard." />
            <NextStep to="/dashboard/screening/bulk-search" icon={ListChecks} title="Bulk screening" text="Upload a list and screen it in one go." />
            <NextStep
              to="/dashboard"
              icon={LayoutDashboard}
              title="Open your dashboard"
              text="Your sign-in is enough; the key is for your integrations."
            />
          </div>
        </div>
      )}
    </div>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="rounded-card border border-border bg-surface p-4 shadow-card">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="mt-1 font-semibold">{value}</p>
    </div>
  );
}

function NextStep({ to, icon: Icon, title, text }: { to: string; icon: typeof ScanSearch; title: string; text: string }) {
  return (
    <Link to={to} className="group rounded-card border border-border bg-surface p-5 shadow-card transition-shadow hover:shadow-float focus-visible:outline-2 focus-visible:outline-ring">
      <Icon className="size-5 text-primary" aria-hidden />
      <p className="mt-3 font-semibold group-hover:text-primary">{title}</p>
      <p className="mt-1 text-sm text-muted-foreground">{text}</p>
    </Link>
  );
}

export function PaymentCancelPage() {
  usePageTitle('Payment Cancelled');
  useBackGoesToDashboard();
  return (
    <section className="mx-auto max-w-lg px-6 pt-36 pb-24 text-center">
      <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-warning-soft text-warning-foreground">
        <XCircle className="size-7" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight">Payment cancelled</h1>
      <p className="mt-3 text-muted-foreground">No payment was taken. You can choose a plan again whenever you are ready.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={readSelectedPlan() ? '/onboarding?step=payment' : '/onboarding'}>Try Again</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/dashboard">Back to Dashboard</Link>
        </Button>
      </div>
    </section>
  );
}
