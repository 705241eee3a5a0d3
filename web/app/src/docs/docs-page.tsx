import { LoadError, Loading } from '@vigil/ui';
import {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
  Badge,
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
} from '@vigil/ui';
import { BookOpen, Code2, KeyRound, Package, PlayCircle, Rocket, Terminal } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { PageHero, Section, SectionHeading } from '../public/page-parts.js';
import { usePageTitle } from '../shell/page-title.js';
import { ERROR_HTTP_STATUS, ERROR_TITLES, type ErrorCode } from '@vigil/proto';
import {
  apiBaseUrl,
  apiKeyHeader,
  publicEndpoints,
  type Endpoint,
  type EndpointResponse,
  type Field,
} from './openapi.js';
import { useGetOpenApiQuery } from './openapi.api.js';
import { WebhooksGuide } from './webhooks-guide.js';
import { API_KEY_VARIABLE, API_SAMPLES, API_URL_VARIABLE, curlCommand, sampleFor } from './samples.js';
import { PLANNED_SDKS, SDKS } from './sdks.js';

/** What a server holding the key uses beyond /api/v1: its webhooks and the live stream. */
const SERVER_PREFIXES = ['/api/monitoring/webhooks', '/api/monitoring/stream'] as const;

/** The stable error codes from proto/src/errors.ts, by status. */
const ERROR_ROWS = (Object.keys(ERROR_HTTP_STATUS) as ErrorCode[])
  .map((code) => ({ code, status: ERROR_HTTP_STATUS[code], title: ERROR_TITLES[code] }))
  .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));

const FAQ = [
  [
    'How do I authenticate?',
    'Send your API key with every request, in the header the reference below names. Keys are 64 hexadecimal characters; keep them on your server, never in a browser or mobile app.',
  ],
  [
    'What do the match scores mean?',
    'Scores run from 0 to 1. Each result explains which tokens of your query matched which tokens of the list entry, and how, so an analyst can see why it scored.',
  ],
  [
    'What happens when I exceed my rate limit or quota?',
    'The API answers 429 with a problem+json body saying which limit was reached. Quotas reset at the start of each month.',
  ],
  [
    'Are requests logged?',
    'Yes: each screening is recorded in your audit log with the list versions used, so you can show what was checked and when.',
  ],
] as const;

export function DocsPage() {
  usePageTitle('Documentation');
  const spec = useGetOpenApiQuery();
  const endpoints = useMemo(() => (spec.data ? publicEndpoints(spec.data) : []), [spec.data]);
  const serverEndpoints = useMemo(() => {
    const doc = spec.data;
    return doc ? SERVER_PREFIXES.flatMap((prefix) => publicEndpoints(doc, prefix)) : [];
  }, [spec.data]);
  const baseUrl = spec.data ? apiBaseUrl(spec.data) : null;
  const keyHeader = spec.data ? apiKeyHeader(spec.data) : null;

  return (
    <>
      <PageHero
        eyebrow="Documentation"
        icon={BookOpen}
        title="Integrate sanctions screening in an afternoon"
        lead="One REST API for screening names, checking your usage and reading the list catalogue. The reference below is generated from the live gateway's OpenAPI document."
      >
        <Button asChild size="lg">
          <Link to="/login">
            <KeyRound aria-hidden /> Get API Key
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <a href="#quick-start">
            <Rocket aria-hidden /> Quick Start
          </a>
        </Button>
      </PageHero>

      <Section id="quick-start" labelledBy="quick-start-heading">
        <SectionHeading id="quick-start-heading" eyebrow="Quick start" title="Three steps to your first screen" />
        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          {[
            {
              icon: KeyRound,
              title: 'Get your API key',
              text: 'Choose a plan; your key is shown once after checkout. Store it in your secrets manager.',
            },
            {
              icon: Terminal,
              title: 'Send a request',
              text: 'Call the screening endpoint with a name and, for better precision, a date of birth and nationality.',
            },
            {
              icon: PlayCircle,
              title: 'Act on the result',
              text: 'Clear or escalate possible matches using the explanation returned with each one.',
            },
          ].map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="rounded-card border border-border bg-surface p-6 shadow-card">
              <div className="flex items-center gap-3">
                <span className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                  {index + 1}
                </span>
                <Icon className="size-5 text-primary" aria-hidden />
              </div>
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section tone="surface" labelledBy="reference-heading">
        <SectionHeading id="reference-heading" eyebrow="Reference" title="API reference" align="left" />
        <Tabs defaultValue="getting-started" className="mt-8">
          <TabsList aria-label="Documentation sections">
            <TabsTrigger value="getting-started">Getting started</TabsTrigger>
            <TabsTrigger value="endpoints">Endpoints</TabsTrigger>
            <TabsTrigger value="examples">Examples</TabsTrigger>
            <TabsTrigger value="webhooks">Webhooks &amp; streams</TabsTrigger>
            <TabsTrigger value="errors">Errors</TabsTrigger>
            <TabsTrigger value="sdks">SDKs</TabsTrigger>
          </TabsList>

          <TabsContent value="getting-started">
            <div className="grid gap-5 md:grid-cols-2">
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Authentication</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Every call to the API carries your API key
                    {keyHeader ? (
                      <>
                        {' '}
                        in the <code className="rounded bg-muted px-1 font-mono text-[13px]">{keyHeader}</code> header
                      </>
                    ) : null}
                    .{' '}
                    {baseUrl ? (
                      <>
                        Requests go to{' '}
                        <code className="rounded bg-muted px-1 font-mono text-[13px]" data-testid="api-base-url">
                          {baseUrl}
                        </code>
                        .
                      </>
                    ) : (
                      'Requests go to your Vigil gateway.'
                    )}
                  </CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Request fields</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Screening takes a <b>name</b> and, optionally, <b>dateOfBirth</b>, <b>nationality</b> and{' '}
                    <b>entityType</b>. The extra fields sharpen the score; they never hide a match on their own. A bulk
                    screen takes the same fields per row (<b>entities</b>) with your own <b>reference</b>, echoed in
                    each result; over 1,000 rows it becomes a job whose results page with <b>next_offset</b> and{' '}
                    <b>has_more</b>.
                  </CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Errors</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Errors are{' '}
                    <code className="rounded bg-muted px-1 font-mono text-[13px]">application/problem+json</code> with a
                    stable <code className="rounded bg-muted px-1 font-mono text-[13px]">code</code> to branch on; the
                    Errors tab lists every code and its status.
                  </CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Limits</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Your plan sets a monthly quota and a per-minute rate. Check both at any time with the status
                    endpoint.
                  </CardDescription>
                </CardHeader>
              </Card>
            </div>
          </TabsContent>

          <TabsContent value="endpoints">
            <SpecState spec={spec}>
              <ul className="flex flex-col gap-4" aria-label="Endpoints">
                {endpoints.map((endpoint) => (
                  <EndpointCard key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} />
                ))}
              </ul>
            </SpecState>
          </TabsContent>

          <TabsContent value="examples">
            <p className="mb-5 text-sm text-muted-foreground">
              Each example runs as shown once <code className="font-mono">{API_URL_VARIABLE}</code> is set to
              {baseUrl ? (
                <>
                  {' '}
                  <code className="font-mono">{baseUrl}</code>
                </>
              ) : (
                ' your gateway'
              )}{' '}
              and <code className="font-mono">{API_KEY_VARIABLE}</code> to your key.
            </p>
            <div className="flex flex-col gap-5">
              {API_SAMPLES.map((sample) => (
                <figure key={sample.id} className="overflow-hidden rounded-xl bg-ink text-ink-foreground">
                  <figcaption className="border-b border-white/10 px-4 py-2.5 text-xs text-ink-foreground/70">
                    {sample.method} {sample.path} · {sample.title}
                  </figcaption>
                  <pre className="overflow-x-auto p-4 font-mono text-[13px] leading-6">
                    <code data-sample={sample.id}>{curlCommand(sample)}</code>
                  </pre>
                </figure>
              ))}
            </div>
          </TabsContent>

          <TabsContent value="webhooks">
            <WebhooksGuide />
            <SpecState spec={spec}>
              <ul className="mt-6 flex flex-col gap-4" aria-label="Webhook and stream endpoints">
                {serverEndpoints.map((endpoint) => (
                  <EndpointCard key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} />
                ))}
              </ul>
            </SpecState>
          </TabsContent>

          <TabsContent value="errors">
            <p className="mb-4 text-sm text-muted-foreground">
              Every error is <code className="font-mono">application/problem+json</code> (RFC 9457) with{' '}
              <code className="font-mono">type</code>, <code className="font-mono">title</code>,{' '}
              <code className="font-mono">status</code>, <code className="font-mono">detail</code>, a stable{' '}
              <code className="font-mono">code</code> and, for invalid input,{' '}
              <code className="font-mono">errors[]</code> naming each field.
            </p>
            <div className="overflow-x-auto rounded-xl border border-border bg-background">
              <table className="w-full text-left text-sm" aria-label="Error codes">
                <thead className="text-xs uppercase tracking-wider text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-4 py-2">
                      Code
                    </th>
                    <th scope="col" className="px-4 py-2">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-2">
                      Title
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-border">
                  {ERROR_ROWS.map((row) => (
                    <tr key={row.code} data-error-code={row.code}>
                      <td className="px-4 py-2 font-mono text-[13px]">{row.code}</td>
                      <td className="px-4 py-2 font-mono text-[13px]">{row.status}</td>
                      <td className="px-4 py-2 text-muted-foreground">{row.title}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </TabsContent>

          <TabsContent value="sdks">
            <ul className="grid gap-4" aria-label="SDKs">
              {SDKS.map((sdk) => (
                <li key={sdk.id} className="rounded-xl border border-border bg-background p-4">
                  <div className="flex items-center justify-between gap-3">
                    <span className="flex items-center gap-2 font-medium">
                      <Package className="size-4 text-primary" aria-hidden /> {sdk.name}{' '}
                      <code className="font-mono text-[13px] text-muted-foreground">{sdk.pkg}</code>
                    </span>
                    <Badge tone="success">Available</Badge>
                  </div>
                  <p className="mt-2 text-sm text-muted-foreground">
                    Typed from the OpenAPI document. {sdk.summary} In {sdk.where} in the Vigil repository, not yet on a
                    public registry. The test suite runs this example against a live gateway.
                  </p>
                  <pre className="mt-3 overflow-x-auto rounded-lg bg-ink p-4 font-mono text-[13px] leading-6 text-ink-foreground">
                    <code data-sample={`sdk-${sdk.id}`}>{sdk.example}</code>
                  </pre>
                  <p className="mt-3 text-sm font-medium">Verifying a webhook (Standard Webhooks signature)</p>
                  <pre className="mt-2 overflow-x-auto rounded-lg bg-ink p-4 font-mono text-[13px] leading-6 text-ink-foreground">
                    <code data-sample={`sdk-${sdk.id}-webhook`}>{sdk.webhook}</code>
                  </pre>
                  <p className="mt-3 text-sm font-medium">Receiving a test webhook on 127.0.0.1 (local mode)</p>
                  <p className="mt-1 text-sm text-muted-foreground">
                    With monitoring started with WEBHOOK_ALLOW_LOOPBACK=true: a receiver verifying signatures, the
                    webhook registered with the API key, a signed test event, the webhook deleted.
                  </p>
                  <pre className="mt-2 overflow-x-auto rounded-lg bg-ink p-4 font-mono text-[13px] leading-6 text-ink-foreground">
                    <code data-sample={`sdk-${sdk.id}-local-webhook`}>{sdk.localWebhook}</code>
                  </pre>
                </li>
              ))}
              {PLANNED_SDKS.map((language) => (
                <li
                  key={language}
                  className="flex items-center justify-between gap-3 rounded-xl border border-dashed border-border p-4"
                >
                  <span className="flex items-center gap-2 font-medium text-muted-foreground">
                    <Package className="size-4" aria-hidden /> {language}
                  </span>
                  <Badge tone="neutral">Planned</Badge>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-sm text-muted-foreground">
              Each SDK is a thin client over the REST API above; anything it can do, a plain HTTP request can.
            </p>
          </TabsContent>
        </Tabs>
      </Section>

      <Section labelledBy="docs-faq-heading">
        <div className="grid gap-12 lg:grid-cols-[1fr_1.4fr]">
          <div>
            <SectionHeading id="docs-faq-heading" eyebrow="Guides & resources" title="Good to know" align="left" />
            <ul className="mt-8 space-y-3 text-sm">
              <li>
                <a
                  href="/openapi.json"
                  className="inline-flex items-center gap-2 font-medium text-primary hover:underline"
                >
                  <Code2 className="size-4" aria-hidden /> OpenAPI document (JSON)
                </a>
              </li>
              <li>
                <Link
                  to="/watchlists"
                  className="inline-flex items-center gap-2 font-medium text-primary hover:underline"
                >
                  <BookOpen className="size-4" aria-hidden /> The lists we screen against
                </Link>
              </li>
              <li>
                <Link to="/pricing" className="inline-flex items-center gap-2 font-medium text-primary hover:underline">
                  <KeyRound className="size-4" aria-hidden /> Plans, quotas and rate limits
                </Link>
              </li>
            </ul>
          </div>
          <Accordion type="single" collapsible>
            {FAQ.map(([question, answer]) => (
              <AccordionItem key={question} value={question}>
                <AccordionTrigger>{question}</AccordionTrigger>
                <AccordionContent>{answer}</AccordionContent>
              </AccordionItem>
            ))}
          </Accordion>
        </div>
      </Section>
    </>
  );
}

function SpecState({ spec, children }: { spec: ReturnType<typeof useGetOpenApiQuery>; children: React.ReactNode }) {
  if (spec.isLoading) return <Loading label="Loading the API reference..." />;
  if (spec.isError) {
    return (
      <LoadError title="The API reference could not be loaded" error={spec.error} onRetry={() => void spec.refetch()} />
    );
  }
  return <>{children}</>;
}

const METHOD_TONE: Record<string, string> = {
  GET: 'bg-success-soft text-success-foreground',
  POST: 'bg-primary-soft text-primary',
  PUT: 'bg-warning-soft text-warning-foreground',
  DELETE: 'bg-destructive-soft text-destructive-foreground',
};

function EndpointCard({ endpoint }: { endpoint: Endpoint }) {
  return (
    <li
      className="rounded-xl border border-border bg-background p-5"
      data-endpoint={`${endpoint.method} ${endpoint.path}`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <span
          className={cn(
            'rounded-md px-2 py-0.5 font-mono text-xs font-semibold',
            METHOD_TONE[endpoint.method] ?? 'bg-muted',
          )}
        >
          {endpoint.method}
        </span>
        <code className="font-mono text-sm font-medium break-all">{endpoint.path}</code>
      </div>
      {endpoint.summary && <p className="mt-2 text-sm font-medium">{endpoint.summary}</p>}
      {endpoint.description && <p className="mt-1 text-sm text-muted-foreground">{endpoint.description}</p>}
      <FieldTable title="Parameters" fields={endpoint.parameters} />
      <FieldTable title="Request body" fields={endpoint.bodyFields} />
      {endpoint.exampleBody !== null && (
        <JsonExample
          title="Example request body"
          value={sampleFor(endpoint.method, endpoint.path)?.body ?? endpoint.exampleBody}
        />
      )}
      {endpoint.responses.map((response) => (
        <ResponseBlock key={response.status} response={response} />
      ))}
    </li>
  );
}

function FieldTable({ title, fields }: { title: string; fields: Field[] }) {
  if (fields.length === 0) return null;
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="mb-2 text-left text-xs font-semibold uppercase tracking-wider text-muted-foreground">
          {title}
        </caption>
        <tbody className="divide-y divide-border">
          {fields.map((field) => (
            <tr key={field.name}>
              <th scope="row" className="py-2 pr-4 font-mono text-[13px] font-medium whitespace-nowrap">
                {field.name}
                {field.required && (
                  <span className="ml-1 text-destructive" aria-label="required">
                    *
                  </span>
                )}
              </th>
              <td className="py-2 pr-4 font-mono text-xs text-muted-foreground">{field.type}</td>
              <td className="py-2 text-muted-foreground">{field.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ResponseBlock({ response }: { response: EndpointResponse }) {
  const label = response.status === 'default' ? 'Any error' : response.status;
  return (
    <div className="mt-4 border-t border-border pt-3" data-response={response.status}>
      <p className="text-xs font-semibold uppercase tracking-wider text-muted-foreground">
        Response {label}
        {response.contentType && (
          <span className="ml-2 font-mono normal-case tracking-normal">{response.contentType}</span>
        )}
      </p>
      {response.description && <p className="mt-1 text-sm text-muted-foreground">{response.description}</p>}
      <FieldTable title="Response fields" fields={response.fields} />
      {response.example !== null && <JsonExample title="Example response" value={response.example} />}
    </div>
  );
}

function JsonExample({ title, value }: { title: string; value: unknown }) {
  return (
    <figure className="mt-3 overflow-hidden rounded-lg bg-ink text-ink-foreground">
      <figcaption className="border-b border-white/10 px-3 py-1.5 text-xs text-ink-foreground/70">{title}</figcaption>
      <pre className="max-h-72 overflow-auto p-3 font-mono text-xs leading-5">
        <code>{JSON.stringify(value, null, 2)}</code>
      </pre>
    </figure>
  );
}
