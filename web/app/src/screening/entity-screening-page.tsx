import { zodResolver } from '@hookform/resolvers/zod';
import type { ScreenResult } from '@vigil/proto';
import { Badge, Button, Card, CardContent, Input, Label, toast, isApiError } from '@vigil/ui';
import { CheckCircle2, Eye, Loader2, ScanSearch } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { feedLabel } from '../public/feed-labels.js';
import { usePageTitle } from '../shell/page-title.js';
import { percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { EntityDetailsDialog, type MatchContext } from './entity-details-dialog.js';
import { StatusBadge } from './parts.js';
import { useScreenEntityMutation, type DashboardScreenResponse } from './screening.api.js';

/** Spec §2: the "Analyzing input..." hint shows for 500 ms after typing. */
const ANALYZING_HINT_MS = 500;

const INPUT_REQUIRED = 'Please enter either an entity name or email address to screen';

// The gateway's own rules (proto screenEntitySchema): a name up to 300 characters, a valid email.
const formSchema = z
  .object({
    name: z.string().trim().max(300, 'Names are limited to 300 characters.'),
    email: z
      .string()
      .trim()
      .max(320)
      .refine((value) => value === '' || z.email().safeParse(value).success, 'Please enter a valid email address.'),
  })
  .refine((form) => form.name !== '' || form.email !== '', { message: INPUT_REQUIRED, path: ['name'] });
type Form = z.infer<typeof formSchema>;

/** /dashboard/screening/api-screen: screen one name and/or email, read every match and why. */
export function EntityScreeningPage() {
  usePageTitle('Entity Screening');
  const [screen, screening] = useScreenEntityMutation();
  const [result, setResult] = useState<DashboardScreenResponse | null>(null);
  const [details, setDetails] = useState<ScreenResult | null>(null);
  const [analyzing, setAnalyzing] = useState(false);
  const [emptyAttempt, setEmptyAttempt] = useState(false);
  const form = useForm<Form>({ resolver: zodResolver(formSchema), defaultValues: { name: '', email: '' } });
  const [name, email] = useWatch({ control: form.control, name: ['name', 'email'] });
  const empty = name.trim() === '' && email.trim() === '';

  useEffect(() => {
    if (!empty) setEmptyAttempt(false);
    if (empty) return setAnalyzing(false);
    setAnalyzing(true);
    const timer = window.setTimeout(() => setAnalyzing(false), ANALYZING_HINT_MS);
    return () => window.clearTimeout(timer);
  }, [name, email, empty]);

  const submit = form.handleSubmit(
    async (values) => {
      try {
        const response = await screen({
          ...(values.name ? { name: values.name } : {}),
          ...(values.email ? { email: values.email } : {}),
        }).unwrap();
        setResult(response);
        if (response.blocked) {
          toast({ title: 'BLOCKED', description: response.message, variant: 'destructive' });
        } else if (response.match) {
          toast({ title: 'REVIEW REQUIRED', description: response.message });
        } else {
          toast({ title: 'Clear', description: 'No matches found. Safe to proceed.' });
        }
      } catch (error) {
        if (!isApiError(error)) {
          toast({
            title: 'Screening Failed',
            description: 'An unexpected error occurred during screening',
            variant: 'destructive',
          });
        } else if (error.status === 401) {
          toast({
            title: 'Authentication Error',
            description: 'Your session has expired. Please sign in again.',
            variant: 'destructive',
          });
        } else {
          toast({ title: 'Screening Failed', description: error.message, variant: 'destructive' });
        }
      }
    },
    (errors) => {
      const message = errors.name?.message ?? errors.email?.message;
      if (message === INPUT_REQUIRED)
        toast({ title: 'Input Required', description: INPUT_REQUIRED, variant: 'destructive' });
    },
  );

  const shown = result ? result.results.filter((r) => r.status !== 'clear') : [];
  const matchOf = (r: ScreenResult): MatchContext => ({
    score: r.score,
    status: r.status,
    label: r.label,
    matchedName: r.matchedName,
    explanation: r.explanation,
    listVersion: result?.listVersions.find((v) => v.source === r.source),
  });

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Entity Screening"
        description="Screen a person or organisation against the sanctions, PEP and watch lists of your plan."
      />
      <Card>
        <CardContent className="pt-6">
          <form
            // With both fields empty the button is disabled, so Enter would do nothing silently: say why instead.
            onKeyDown={(event) => {
              if (event.key === 'Enter' && empty) {
                event.preventDefault();
                setEmptyAttempt(true);
                toast({ title: 'Input Required', description: INPUT_REQUIRED, variant: 'destructive' });
              }
            }}
            onSubmit={(event) => void submit(event)}
            noValidate
            className="grid grid-cols-1 gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
          >
            <div className="flex flex-col gap-2">
              <Label htmlFor="screen-name">
                Entity name{' '}
                <span aria-hidden className="text-destructive">
                  *
                </span>
                <span className="sr-only"> (required unless an email is given)</span>
              </Label>
              <Input
                id="screen-name"
                autoComplete="off"
                placeholder="e.g. Nicolas Maduro Moros"
                aria-invalid={form.formState.errors.name ? true : undefined}
                aria-describedby="screen-hint"
                {...form.register('name')}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="screen-email">Email (optional)</Label>
              <Input
                id="screen-email"
                type="email"
                autoComplete="off"
                placeholder="name@example.com"
                aria-invalid={form.formState.errors.email ? true : undefined}
                {...form.register('email')}
              />
            </div>
            <Button type="submit" disabled={empty || screening.isLoading}>
              {screening.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <ScanSearch aria-hidden />}
              Start Screening
            </Button>
          </form>
          <p id="screen-hint" className="mt-2 min-h-5 text-sm text-muted-foreground" aria-live="polite">
            {analyzing
              ? 'Analyzing input...'
              : emptyAttempt
                ? INPUT_REQUIRED
                : (form.formState.errors.email?.message ??
                  (form.formState.errors.name?.message !== INPUT_REQUIRED ? form.formState.errors.name?.message : ''))}
          </p>
        </CardContent>
      </Card>

      {result && (
        <section aria-labelledby="results-heading" className="mt-6">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          {shown.length === 0 ? (
            <div
              className="flex items-center gap-4 rounded-card border border-success/40 bg-success-soft p-6 text-success-foreground"
              data-testid="clear-panel"
            >
              <CheckCircle2 className="size-8 shrink-0" aria-hidden />
              <div>
                <p className="text-lg font-semibold">CLEAR - No Matches Found</p>
                <p>Safe to proceed</p>
                <p className="mt-1 text-xs">
                  Searched {result.listVersions.length} list version{result.listVersions.length === 1 ? '' : 's'} with{' '}
                  {result.algorithm}.
                </p>
              </div>
            </div>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Matches">
              {shown.map((r) => (
                <li
                  key={r.id}
                  className="rounded-card border border-border bg-surface p-4 shadow-card"
                  data-testid="screen-result"
                >
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <div className="flex flex-wrap items-center gap-2">
                        <StatusBadge status={r.status} />
                        <span className="font-semibold break-words">{r.name}</span>
                      </div>
                      <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
                        <div>
                          <dt className="text-xs text-muted-foreground">Match type</dt>
                          <dd>{r.label}</dd>
                        </div>
                        <div>
                          <dt className="text-xs text-muted-foreground">Confidence</dt>
                          <dd className="tabular-nums">{percent(r.score, 1)}</dd>
                        </div>
                        <div>
                          <dt className="text-xs text-muted-foreground">Source</dt>
                          <dd>{feedLabel(r.sourceDataset)}</dd>
                        </div>
                        <div>
                          <dt className="text-xs text-muted-foreground">Matched name</dt>
                          <dd className="break-words">{r.matchedName}</dd>
                        </div>
                      </dl>
                      {r.programs.length > 0 && (
                        <p className="mt-2 text-xs text-muted-foreground">Programmes: {r.programs.join(', ')}</p>
                      )}
                    </div>
                    <div className="flex items-center gap-2">
                      <Badge tone="outline">{r.entityType}</Badge>
                      <Button size="sm" variant="outline" onClick={() => setDetails(r)}>
                        <Eye aria-hidden /> View Details
                      </Button>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <EntityDetailsDialog
        entityId={details?.id ?? null}
        match={details ? matchOf(details) : undefined}
        onClose={() => setDetails(null)}
      />
    </div>
  );
}
