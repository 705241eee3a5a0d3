import { zodResolver } from '@hookform/resolvers/zod';
import { IDENTIFIER_TYPES, type ScreenResult } from '@vigil/proto';
import { Badge, Button, Card, CardContent, Input, Label, toast, isApiError } from '@vigil/ui';
import { CheckCircle2, Eye, Loader2, Plus, ScanSearch, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useFieldArray, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { feedLabel } from '../public/feed-labels.js';
import { usePageTitle } from '../shell/page-title.js';
import { percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { EntityDetailsDialog, type MatchContext } from './entity-details-dialog.js';
import { StatusBadge } from './parts.js';
import { useScreenEntityMutation, type DashboardScreenResponse } from './screening.api.js';
import {
  describeInput,
  EMPTY_SCREENING_FORM,
  ENTITY_TYPE_OPTIONS,
  IDENTIFIER_LABELS,
  INPUT_REQUIRED,
  screeningFormSchema,
  screenRequestOf,
  type ScreeningForm,
} from './screening-form.js';

/** Spec §2: the "Analyzing input..." hint shows for 500 ms after typing. */
const ANALYZING_HINT_MS = 500;

const SELECT_CLASS =
  'h-10 w-full rounded-lg border border-input bg-surface px-3 text-sm text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30';

/** The first validation message of the form, in the order the fields are shown. */
function firstError(errors: FieldErrors<ScreeningForm>): string | undefined {
  const identifier = errors.identifiers?.find?.((e) => e?.value?.message)?.value?.message;
  return (
    errors.name?.message ??
    errors.email?.message ??
    errors.dateOfBirth?.message ??
    errors.nationality?.message ??
    errors.customerReference?.message ??
    identifier
  );
}

/** /dashboard/screening/api-screen: screen one party with every field the API takes, read every match and why. */
export function EntityScreeningPage() {
  usePageTitle('Entity Screening');
  const [screen, screening] = useScreenEntityMutation();
  // The answer with the input it answers: a new submission clears both, whatever it turns out to be.
  const [result, setResult] = useState<{ response: DashboardScreenResponse; input: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [details, setDetails] = useState<ScreenResult | null>(null);
  const [analyzing, setAnalyzing] = useState(false);
  const [emptyAttempt, setEmptyAttempt] = useState(false);
  const form = useForm<ScreeningForm>({
    resolver: zodResolver(screeningFormSchema),
    defaultValues: EMPTY_SCREENING_FORM,
  });
  const identifiers = useFieldArray({ control: form.control, name: 'identifiers' });
  const [name, email, idRows] = useWatch({ control: form.control, name: ['name', 'email', 'identifiers'] });
  const empty = name.trim() === '' && email.trim() === '' && !idRows.some((i) => i.value.trim() !== '');

  useEffect(() => {
    if (!empty) setEmptyAttempt(false);
    if (empty) return setAnalyzing(false);
    setAnalyzing(true);
    const timer = window.setTimeout(() => setAnalyzing(false), ANALYZING_HINT_MS);
    return () => window.clearTimeout(timer);
  }, [name, email, empty]);

  const submit = form.handleSubmit(
    async (values) => {
      setResult(null);
      setProblem(null);
      const request = screenRequestOf(screeningFormSchema.parse(values));
      try {
        const response = await screen(request).unwrap();
        setResult({ response, input: describeInput(request) });
        if (response.blocked) {
          toast({ title: 'BLOCKED', description: response.message, variant: 'destructive' });
        } else if (response.match) {
          toast({ title: 'REVIEW REQUIRED', description: response.message });
        } else {
          toast({ title: 'Clear', description: 'No matches found. Safe to proceed.' });
        }
      } catch (error) {
        if (!isApiError(error)) {
          setProblem('An unexpected error occurred during screening.');
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
          setProblem(error.message);
          toast({ title: 'Screening Failed', description: error.message, variant: 'destructive' });
        }
      }
    },
    (errors) => {
      // An invalid input is a new submission too: the previous answer was for another input.
      setResult(null);
      setProblem(null);
      if (firstError(errors) === INPUT_REQUIRED)
        toast({ title: 'Input Required', description: INPUT_REQUIRED, variant: 'destructive' });
    },
  );

  const validation = firstError(form.formState.errors);
  const response = result?.response;
  const shown = response ? response.results.filter((r) => r.status !== 'clear') : [];
  const matchOf = (r: ScreenResult): MatchContext => ({
    score: r.score,
    status: r.status,
    label: r.label,
    matchedName: r.matchedName,
    explanation: r.explanation,
    listVersion: response?.listVersions.find((v) => v.source === r.source),
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
            // With every field empty the button is disabled, so Enter would do nothing silently: say why instead.
            onKeyDown={(event) => {
              if (event.key === 'Enter' && empty) {
                event.preventDefault();
                setEmptyAttempt(true);
                setResult(null);
                toast({ title: 'Input Required', description: INPUT_REQUIRED, variant: 'destructive' });
              }
            }}
            onSubmit={(event) => void submit(event)}
            noValidate
            className="flex flex-col gap-4"
          >
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-2">
                <Label htmlFor="screen-name">
                  Entity name{' '}
                  <span aria-hidden className="text-destructive">
                    *
                  </span>
                  <span className="sr-only"> (required unless an email or an identifier is given)</span>
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
              <div className="flex flex-col gap-2">
                <Label htmlFor="screen-dob">Date of birth (optional)</Label>
                <Input
                  id="screen-dob"
                  autoComplete="off"
                  placeholder="YYYY, YYYY-MM or YYYY-MM-DD"
                  aria-invalid={form.formState.errors.dateOfBirth ? true : undefined}
                  {...form.register('dateOfBirth')}
                />
              </div>
              <div className="flex flex-col gap-2">
                <Label htmlFor="screen-nationality">Nationality (optional)</Label>
                <Input
                  id="screen-nationality"
                  autoComplete="off"
                  placeholder="Country code or name, e.g. VE"
                  aria-invalid={form.formState.errors.nationality ? true : undefined}
                  {...form.register('nationality')}
                />
              </div>
              <div className="flex flex-col gap-2">
                <Label htmlFor="screen-type">Entity type (optional)</Label>
                <select id="screen-type" className={SELECT_CLASS} {...form.register('entityType')}>
                  <option value="">Any</option>
                  {ENTITY_TYPE_OPTIONS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="flex flex-col gap-2">
                <Label htmlFor="screen-reference">Customer reference (optional)</Label>
                <Input
                  id="screen-reference"
                  autoComplete="off"
                  placeholder="Your own id for this customer"
                  aria-invalid={form.formState.errors.customerReference ? true : undefined}
                  {...form.register('customerReference')}
                />
              </div>
            </div>
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">Identifiers (optional)</legend>
              {identifiers.fields.map((field, index) => (
                <div key={field.id} className="grid grid-cols-[12rem_1fr_auto] items-end gap-2">
                  <div className="flex flex-col gap-1">
                    <Label htmlFor={`screen-identifier-type-${index}`} className="sr-only">
                      Identifier {index + 1} type
                    </Label>
                    <select
                      id={`screen-identifier-type-${index}`}
                      className={SELECT_CLASS}
                      {...form.register(`identifiers.${index}.type`)}
                    >
                      {IDENTIFIER_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {IDENTIFIER_LABELS[type]}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="flex flex-col gap-1">
                    <Label htmlFor={`screen-identifier-value-${index}`} className="sr-only">
                      Identifier {index + 1} value
                    </Label>
                    <Input
                      id={`screen-identifier-value-${index}`}
                      autoComplete="off"
                      placeholder="Number or address"
                      {...form.register(`identifiers.${index}.value`)}
                    />
                  </div>
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    onClick={() => identifiers.remove(index)}
                    aria-label={`Remove identifier ${index + 1}`}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              ))}
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="self-start"
                disabled={identifiers.fields.length >= 20}
                onClick={() => identifiers.append({ type: 'passport', value: '' })}
              >
                <Plus aria-hidden /> Add identifier
              </Button>
            </fieldset>
            <Button type="submit" className="self-start" disabled={empty || screening.isLoading}>
              {screening.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <ScanSearch aria-hidden />}
              Start Screening
            </Button>
          </form>
          <p
            id="screen-hint"
            className="mt-2 min-h-5 text-sm text-muted-foreground"
            aria-live="polite"
            data-testid="screen-hint"
          >
            {analyzing
              ? 'Analyzing input...'
              : emptyAttempt
                ? INPUT_REQUIRED
                : (problem ?? (validation !== INPUT_REQUIRED ? validation : '') ?? '')}
          </p>
        </CardContent>
      </Card>

      {result && response && (
        <section aria-labelledby="results-heading" className="mt-6">
          <h2 id="results-heading" className="mb-3 text-lg font-semibold break-words">
            Results for {result.input}
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
                  Searched {response.listVersions.length} list version{response.listVersions.length === 1 ? '' : 's'}{' '}
                  with {response.algorithm}.
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
