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
import { LoadError, Loading } from '../shell/query-states.js';
import { apiKeyHeader, curlExample, publicEndpoints, type Endpoint, type Field } from './openapi.js';
import { useGetOpenApiQuery } from './openapi.api.js';

const SDKS = [
  { name: 'JavaScript / Node.js', status: 'available' },
  { name: 'Python', status: 'available' },
  { name: 'Java', status: 'available' },
  { name: 'PHP', status: 'available' },
  { name: 'C#', status: 'available' },
  { name: 'Go', status: 'coming soon' },
  { name: 'Ruby', status: 'coming soon' },
] as const;

const FAQ = [
  ['How do I authenticate?', 'Send your API key with every request, in the header the reference below names. Keys are 64 hexadecimal characters; keep them on your server, never in a browser or mobile app.'],
  ['What do the match scores mean?', 'Scores run from 0 to 1. Each result explains which tokens of your query matched which tokens of the list entry, and how, so an analyst can see why it scored.'],
  ['What happens when I exceed my rate limit or quota?', 'The API answers 429 with a problem+json body saying which limit was reached. Quotas reset at the start of each month.'],
  ['Are requests logged?', 'Yes: each screening is recorded in your audit log with the list versions used, so you can show what was checked and when.'],
] as const;

export function DocsPage() {
  usePageTitle('Documentation');
  const spec = useGetOpenApiQuery();
  const endpoints = useMemo(() => (spec.data ? publicEndpoints(spec.data) : []), [spec.data]);
  const baseUrl = spec.data?.servers?.[0]?.url ?? window.location.origin;
  const auth = spec.data ? apiKeyHeader(spec.data) : null;

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
            { icon: KeyRound, title: 'Get your API key', text: 'Choose a plan; your key is shown once after checkout. Store it in your secrets manager.' },
            { icon: Terminal, title: 'Send a request', text: 'Call the screening endpoint with a name and, for better precision, a date of birth and nationality.' },
            { icon: PlayCircle, title: 'Act on the result', text: 'Clear or escalate possible matches using the explanation returned with each one.' },
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
            <TabsTrigger value="sdks">SDKs</TabsTrigger>
          </TabsList>

          <TabsContent value="getting-started">
            <div className="grid gap-5 md:grid-cols-2">
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Authentication</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Every call to the API carries your API key
                    {auth ? (
                      <>
                        {' '}
                        in the <code className="rounded bg-muted px-1 font-mono text-[13px]">{auth.header}</code> header
                      </>
                    ) : null}
                    . Requests go to <code className="rounded bg-muted px-1 font-mono text-[13px]">{baseUrl}</code>.
                  </CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Request fields</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Screening takes a <b>name</b> and, optionally, <b>dateOfBirth</b>, <b>nationality</b> and <b>entityType</b>.
                    The extra fields sharpen the score; they never hide a match on their own.
                  </CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Errors</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Errors are <code className="rounded bg-muted px-1 font-mono text-[13px]">application/problem+json</code> with a
                    stable <code className="rounded bg-muted px-1 font-mono text-[13px]">code</code> to branch on.
                  </CardDescription>
                </CardHeader>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Limits</CardTitle>
                  <CardDescription className="leading-relaxed">
                    Your plan sets a monthly quota and a per-minute rate. Check both at any time with the status endpoint.
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
            <SpecState spec={spec}>
              <div className="flex flex-col gap-5">
                {auth &&
                  endpoints.map((endpoint) => (
                    <figure key={`${endpoint.method} ${endpoint.path}`} className="overflow-hidden rounded-xl bg-ink text-ink-foreground">
                      <figcaption className="border-b border-white/10 px-4 py-2.5 text-xs text-ink-foreground/70">
                        {endpoint.method} {endpoint.path}
                        {endpoint.summary && ` · ${endpoint.summary}`}
                      </figcaption>
                      <pre className="overflow-x-auto p-4 font-mono text-[13px] leading-6">
                        <code>{curlExample(endpoint, baseUrl, auth)}</code>
                      </pre>
                    </figure>
                  ))}
              </div>
            </SpecState>
          </TabsContent>

          <TabsContent value="sdks">
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {SDKS.map((sdk) => (
                <li key={sdk.name} className="flex items-center justify-between gap-3 rounded-xl border border-border bg-background p-4">
                  <span className="flex items-center gap-2 font-medium">
                    <Package className="size-4 text-primary" aria-hidden /> {sdk.name}
                  </span>
                  <Badge tone={sdk.status === 'available' ? 'success' : 'neutral'}>
                    {sdk.status === 'available' ? 'Available' : 'Coming soon'}
                  </Badge>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-sm text-muted-foreground">
              Every SDK is a thin client over the REST API above; anything an SDK can do, a plain HTTP request can.
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
                <a href="/openapi.json" className="inline-flex items-center gap-2 font-medium text-primary hover:underline">
                  <Code2 className="size-4" aria-hidden /> OpenAPI document (JSON)
                </a>
              </li>
              <li>
                <Link to="/watchlists" className="inline-flex items-center gap-2 font-medium text-primary hover:underline">
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
    return <LoadError title="The API reference could not be loaded" error={spec.error} onRetry={() => void spec.refetch()} />;
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
    <li className="rounded-xl border border-border bg-background p-5" data-endpoint={`${endpoint.method} ${endpoint.path}`}>
      <div className="flex flex-wrap items-center gap-3">
        <span className={cn('rounded-md px-2 py-0.5 font-mono text-xs font-semibold', METHOD_TONE[endpoint.method] ?? 'bg-muted')}>
          {endpoint.method}
        </span>
        <code className="font-mono text-sm font-medium break-all">{endpoint.path}</code>
      </div>
      {endpoint.summary && <p className="mt-2 text-sm font-medium">{endpoint.summary}</p>}
      {endpoint.description && <p className="mt-1 text-sm text-muted-foreground">{endpoint.description}</p>}
      <FieldTable title="Parameters" fields={endpoint.parameters} />
      <FieldTable title="Request body" fields={endpoint.bodyFields} />
    </li>
  );
}

function FieldTable({ title, fields }: { title: string; fields: Field[] }) {
  if (fields.length === 0) return null;
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="mb-2 text-left text-xs font-semibold uppercase tracking-wider text-muted-foreground">{title}</caption>
        <tbody className="divide-y divide-border">
          {fields.map((field) => (
            <tr key={field.name}>
              <th scope="row" className="py-2 pr-4 font-mono text-[13px] font-medium whitespace-nowrap">
                {field.name}
                {field.required && <span className="ml-1 text-destructive" aria-label="required">*</span>}
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
