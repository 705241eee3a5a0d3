import type { AccountSummary } from '@vigil/proto';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '@vigil/ui';
import { KeyRound } from 'lucide-react';
import { Link } from 'react-router-dom';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * The organisation's API key as the server describes it (prefix and state, never the key): the
 * dashboard needs only the sign-in, so the browser keeps no key. Rotation is in Settings.
 */
export function ApiKeyCard({ apiKey }: { apiKey: AccountSummary['api_key'] | undefined }) {
  const active = apiKey?.status === 'active';
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <CardTitle>API key</CardTitle>
          <CardDescription>For your integrations. The dashboard itself works with your sign-in.</CardDescription>
        </div>
        <Badge
          tone={active ? 'success' : 'warning'}
          data-testid="api-key-status"
          data-status={apiKey?.status ?? 'unknown'}
        >
          <KeyRound aria-hidden />
          {apiKey === undefined ? 'Checking' : active ? 'Active' : apiKey.status === 'revoked' ? 'Revoked' : 'No key'}
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {active && apiKey ? (
          <p>
            Key starting <span className="font-mono font-medium">{apiKey.prefix}…</span>
            {apiKey.created_at && `, created ${dateFormat.format(new Date(apiKey.created_at))}`}.
          </p>
        ) : (
          <p>Your organisation has no active API key. Integrations need one; generate it in Settings.</p>
        )}
        <div>
          <Button asChild variant="outline">
            <Link to="/dashboard/screening/settings">{active ? 'Manage API key' : 'Generate an API key'}</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
