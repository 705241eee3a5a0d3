import type { EntityDetails, ListVersionRef, MatchExplanation } from '@vigil/proto';
import { Badge, Dialog, DialogContent, DialogDescription, DialogTitle, Spinner, errorMessage } from '@vigil/ui';
import type { ReactNode } from 'react';
import { feedLabel } from '../public/feed-labels.js';
import { formatDateTime, StatusBadge } from './parts.js';
import { percent, type MatchStatus } from './classify.js';
import { useGetEntityQuery } from './screening.api.js';

/** The match the dialog explains, when the screening that found it is at hand. */
export type MatchContext = {
  score: number;
  status: MatchStatus;
  label: string;
  matchedName: string;
  explanation?: MatchExplanation;
  listVersion?: ListVersionRef;
};

/**
 * View Details: the listed entity (names, addresses, identifiers, programmes) and, for a screening
 * result, how it matched — which query token met which list token and how, the qualifiers that
 * moved the score, and the list version searched.
 */
export function EntityDetailsDialog({
  entityId,
  match,
  onClose,
}: {
  entityId: string | null;
  match?: MatchContext;
  onClose: () => void;
}) {
  const entity = useGetEntityQuery(entityId ?? '', { skip: !entityId });
  return (
    <Dialog open={entityId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] max-w-3xl overflow-y-auto">
        <DialogTitle>{entity.data?.name ?? 'Entity details'}</DialogTitle>
        <DialogDescription>
          {entity.data
            ? `${entity.data.sourceName} · ${entity.data.entityType}`
            : 'The listed entity and why it matched.'}
        </DialogDescription>
        {!entityId ? null : entity.isLoading ? (
          <Spinner label="Loading details..." className="py-10" />
        ) : entity.isError || !entity.data ? (
          <p role="alert" className="mt-4 text-sm text-destructive-foreground">
            Failed to load details: {errorMessage(entity.error, 'Failed to load entity details')}
          </p>
        ) : (
          <DetailsBody entity={entity.data} match={match} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function DetailsBody({ entity, match }: { entity: EntityDetails; match?: MatchContext }) {
  const others = [...entity.names.slice(1), ...entity.aliases].filter(
    (name, index, all) => all.findIndex((n) => n.full === name.full) === index && name.full !== entity.name,
  );
  return (
    <div className="mt-5 flex flex-col gap-6 text-sm">
      {match && (
        <section aria-labelledby="match-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id="match-heading" className="font-semibold">
              Why it matched
            </h3>
            <StatusBadge status={match.status} />
            <Badge tone="outline">{match.label}</Badge>
            <Badge tone="outline">Score {percent(match.score, 1)}</Badge>
          </div>
          <p>
            Matched list name: <strong>{match.matchedName}</strong>
          </p>
          {match.explanation && match.explanation.tokens.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" data-testid="token-alignment">
                <caption className="sr-only">Token alignment</caption>
                <thead className="text-xs text-muted-foreground">
                  <tr>
                    <th scope="col" className="py-1.5 pr-3 font-medium">
                      Query token
                    </th>
                    <th scope="col" className="py-1.5 pr-3 font-medium">
                      List token
                    </th>
                    <th scope="col" className="py-1.5 pr-3 font-medium">
                      How
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                      Score
                    </th>
                    <th scope="col" className="py-1.5 text-right font-medium">
                      Weight
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {match.explanation.tokens.map((token, i) => (
                    <tr key={i} className="border-t border-border">
                      <td className="py-1.5 pr-3 font-mono">{token.query.join(' ') || '—'}</td>
                      <td className="py-1.5 pr-3 font-mono">{token.list.join(' ') || '—'}</td>
                      <td className="py-1.5 pr-3">
                        <Badge tone="brand">{token.method}</Badge>
                      </td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{token.score.toFixed(2)}</td>
                      <td className="py-1.5 text-right tabular-nums">{token.weight.toFixed(2)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {match.explanation.unmatchedList.length > 0 && (
                <p className="mt-2 text-xs text-muted-foreground">
                  List tokens not matched: {match.explanation.unmatchedList.join(', ')}
                </p>
              )}
            </div>
          )}
          {match.explanation && match.explanation.qualifiers.length > 0 && (
            <ul className="flex flex-col gap-1" aria-label="Qualifiers">
              {match.explanation.qualifiers.map((q, i) => (
                <li key={i}>
                  <Badge tone={q.effect > 0 ? 'success' : q.effect < 0 ? 'destructive' : 'neutral'}>
                    {q.qualifier} {q.effect > 0 ? '+' : ''}
                    {q.effect.toFixed(2)}
                  </Badge>{' '}
                  {q.detail}
                </li>
              ))}
            </ul>
          )}
          {match.explanation?.text && (
            <details>
              <summary className="cursor-pointer text-muted-foreground">Full explanation</summary>
              <pre className="mt-2 overflow-x-auto rounded-lg bg-muted p-3 text-xs whitespace-pre-wrap">
                {match.explanation.text}
              </pre>
            </details>
          )}
        </section>
      )}
      <section aria-labelledby="entity-heading">
        <h3 id="entity-heading" className="font-semibold">
          Listed entity
        </h3>
        <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2">
          <Field label="List">
            {feedLabel(entity.sourceDataset)} ({entity.sourceName})
          </Field>
          <Field label="List version" testId="list-version">
            v{match?.listVersion?.versionId ?? entity.listVersion}
            {match?.listVersion && ` · fetched ${formatDateTime(match.listVersion.fetchedAt)}`}
          </Field>
          <Field label="Source id">{entity.sourceId}</Field>
          <Field label="Type">{entity.entityType}</Field>
          <Field label="Programmes">{entity.programs.join(', ') || '—'}</Field>
          <Field label="Dates of birth">{entity.datesOfBirth.join(', ') || '—'}</Field>
          <Field label="Nationality / country">
            {[...entity.nationalities, ...entity.citizenships].filter((v, i, a) => a.indexOf(v) === i).join(', ') ||
              '—'}
          </Field>
          <Field label="Listed">{entity.listingDate ?? '—'}</Field>
        </dl>
      </section>
      <Section title="Other names" empty={others.length === 0}>
        <ul className="flex flex-wrap gap-1.5">
          {others.map((name) => (
            <li key={name.full}>
              <Badge tone={name.strength === 'weak' ? 'neutral' : 'outline'}>
                {name.full}
                {name.strength === 'weak' && ' (weak)'}
              </Badge>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Addresses" empty={entity.addresses.length === 0}>
        <ul className="list-disc pl-5">
          {entity.addresses.map((address, i) => (
            <li key={i}>
              {address.full ??
                [address.street, address.city, address.region, address.postalCode, address.country]
                  .filter(Boolean)
                  .join(', ')}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Identifiers" empty={entity.identifiers.length === 0}>
        <ul className="list-disc pl-5">
          {entity.identifiers.map((id, i) => (
            <li key={i}>
              {id.type}: <span className="font-mono">{id.value}</span>
              {id.country && ` (${id.country})`}
            </li>
          ))}
        </ul>
      </Section>
      {entity.remarks && (
        <Section title="Remarks" empty={false}>
          <p className="whitespace-pre-wrap">{entity.remarks}</p>
        </Section>
      )}
    </div>
  );
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Section({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  return (
    <section>
      <h3 className="font-semibold">{title}</h3>
      <div className="mt-2">{empty ? <p className="text-muted-foreground">None listed.</p> : children}</div>
    </section>
  );
}
