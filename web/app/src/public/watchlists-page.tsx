import {
  Alert,
  AlertDescription,
  AlertTitle,
  Badge,
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  errorMessage,
} from '@vigil/ui';
import { AlertTriangle, ChevronDown, Database, ListChecks, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatCount } from '../billing/pricing.js';
import { CONTACT_LINK } from '../shell/nav-links.js';
import { usePageTitle } from '../shell/page-title.js';
import { PageHero, Section } from './page-parts.js';
import { useGetListCatalogueQuery } from './screening.api.js';
import { DetailList } from './services-page.js';
import { statsByFeed, type FeedStats } from './watchlist-stats.js';
import { WATCHLISTS, type Watchlist } from './watchlists-content.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export function WatchlistsPage() {
  usePageTitle('Watchlists');
  const catalogue = useGetListCatalogueQuery();
  const stats = catalogue.data ? statsByFeed(catalogue.data.lists) : null;

  return (
    <>
      <PageHero
        eyebrow="Watchlists"
        icon={ListChecks}
        title="Global Sanctions List Monitoring"
        lead="Nine groups of lists, read from their official publishers and loaded as each publishes a new version. Entity counts and update dates below are live figures from the Vigil list catalogue."
      >
        <Button asChild size="lg">
          <Link to={CONTACT_LINK}>Start Free API Trial</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={CONTACT_LINK}>Contact Sales</Link>
        </Button>
      </PageHero>

      <Section labelledBy="watchlists-heading">
        <h2 id="watchlists-heading" className="sr-only">
          Watchlists
        </h2>
        {catalogue.isError && (
          <Alert tone="warning" className="mb-8 items-start">
            <AlertTriangle aria-hidden />
            <div className="flex-1">
              <AlertTitle>Live list figures are unavailable</AlertTitle>
              <AlertDescription>
                The list catalogue did not answer ({errorMessage(catalogue.error)}), so entity counts and update dates are not shown.
              </AlertDescription>
            </div>
            <Button size="sm" variant="outline" onClick={() => void catalogue.refetch()}>
              <RotateCw aria-hidden /> Retry
            </Button>
          </Alert>
        )}
        <div className="grid items-start gap-5 md:grid-cols-2 lg:grid-cols-3">
          {WATCHLISTS.map((list) => (
            <WatchlistCard
              key={list.feed}
              list={list}
              loading={catalogue.isLoading}
              stats={stats === null ? undefined : (stats.get(list.feed) ?? null)}
            />
          ))}
        </div>

        <Alert tone="info" className="mt-12" role="note">
          <AlertTriangle aria-hidden />
          <div>
            <AlertTitle>Compliance notice</AlertTitle>
            <AlertDescription>
              No screening service can guarantee 100% accuracy or completeness of list data or matching. You remain responsible
              for your own compliance decisions and for reviewing every possible match. Vigil is not liable for entities a screen
              does not return.
            </AlertDescription>
          </div>
        </Alert>
      </Section>
    </>
  );
}

function WatchlistCard({ list, stats, loading }: { list: Watchlist; stats: FeedStats | null | undefined; loading: boolean }) {
  const [open, setOpen] = useState(false);
  const detailId = `watchlist-${list.feed}-detail`;
  return (
    <Card data-feed={list.feed} className="flex flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <span className="flex size-10 items-center justify-center rounded-xl bg-primary-soft text-primary">
            <Database className="size-5" aria-hidden />
          </span>
          <Badge tone="outline">{list.category}</Badge>
        </div>
        <CardTitle className="mt-3">{list.name}</CardTitle>
        <CardDescription className="leading-relaxed">{list.description}</CardDescription>
        <dl className="mt-4 grid grid-cols-2 gap-3 rounded-lg bg-muted/60 p-3 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Entities</dt>
            <dd className="font-semibold" data-testid="entity-count">
              {loading ? '…' : stats === undefined ? 'Unavailable' : stats === null ? 'Not loaded yet' : formatCount(stats.entityCount)}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Last updated</dt>
            <dd className="font-semibold" data-testid="last-updated">
              {loading
                ? '…'
                : stats?.lastUpdated
                  ? dateFormat.format(new Date(stats.lastUpdated))
                  : stats === undefined
                    ? 'Unavailable'
                    : 'Not loaded yet'}
            </dd>
          </div>
        </dl>
        <p className="mt-3 text-xs text-muted-foreground">
          <span className="font-medium text-foreground">Source:</span> {list.source}
        </p>
        <p className="mt-1 text-xs text-muted-foreground">
          <span className="font-medium text-foreground">Coverage:</span> {list.coverage} · checked daily
        </p>
        {open && (
          <div id={detailId} className="mt-4 space-y-4 border-t border-border pt-4 text-sm">
            <DetailBlock title="Overview" text={list.detail.overview} />
            <DetailBlock title="Purpose and compliance" text={list.detail.purpose} />
            <DetailBlock title="Coverage and data quality" text={list.detail.coverage} />
            <DetailList title="Use cases" items={list.detail.useCases} />
            <DetailBlock title="Legal basis" text={list.detail.legalBasis} />
            <DetailList title="Features" items={list.features} />
          </div>
        )}
        <Button
          variant="link"
          className="mt-3 self-start whitespace-normal text-left"
          aria-expanded={open}
          aria-controls={detailId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Show Less' : 'Learn More About This Watchlist'}
          <ChevronDown className={open ? 'rotate-180 transition-transform' : 'transition-transform'} aria-hidden />
        </Button>
      </CardHeader>
    </Card>
  );
}

function DetailBlock({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <h4 className="font-semibold">{title}</h4>
      <p className="mt-1 leading-relaxed text-muted-foreground">{text}</p>
    </div>
  );
}
