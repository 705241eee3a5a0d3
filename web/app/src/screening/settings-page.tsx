import { QueryView } from '@vigil/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_THRESHOLDS,
  SELECTABLE_ALGORITHMS,
  memberRoleAtLeast,
  type AccountSummary,
  type MemberRole,
  type NotificationSettings,
} from '@vigil/proto';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  toast,
  errorMessage,
} from '@vigil/ui';
import { Check, Copy, KeyRound, Loader2, Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useGetAccountSummaryQuery } from '../auth/auth.api.js';
import { useAuth } from '@vigil/ui/session';
import { usePageTitle } from '../shell/page-title.js';
import { TeamSection } from '../team/team-section.js';
import { PageHeader } from './dashboard-shell.js';
import { countFormat, formatDateTime } from './parts.js';
import {
  useGetNotificationSettingsQuery,
  useRegenerateApiKeyMutation,
  useUpdateNotificationSettingsMutation,
  useUpdateProfileMutation,
} from './screening.api.js';

/**
 * Whether the signed-in member's role reaches `minimum` (the gateway and auth refuse otherwise
 * with ROLE_FORBIDDEN; the page only spares them a button that cannot work).
 */
function useMayChange(minimum: MemberRole): boolean {
  return memberRoleAtLeast(useAuth().user?.member_role, minimum);
}

function RoleNote({ minimum }: { minimum: MemberRole }) {
  return (
    <p className="text-xs text-muted-foreground" data-testid="role-note">
      Only {minimum === 'owner' ? 'owners' : 'supervisors and owners'} of your team can change this.
    </p>
  );
}

/** Spec §9: the copy indicator lasts 2 s. */
const COPIED_MS = 2_000;

// The same rules the auth service applies (proto updateProfileRequestSchema), checked before sending.
const profileSchema = z.object({
  client_name: z.string().trim().min(1, 'Client name is required.').max(200),
  contact_email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Please enter a valid email address.' })),
});
type ProfileForm = z.infer<typeof profileSchema>;

const NOTIFICATIONS: readonly [keyof NotificationSettings, string, string][] = [
  ['email_alerts', 'Email alerts', 'A message when a screening is blocked.'],
  ['quota_warnings', 'Quota warnings', 'At 80% and 100% of the monthly quota.'],
  ['payment_failures', 'Payment failures', 'When a payment does not go through.'],
  ['security_alerts', 'Security alerts', 'Sign-ins and key changes.'],
  ['weekly_reports', 'Weekly reports', 'A summary every Monday.'],
  ['monthly_reports', 'Monthly reports', 'A summary on the first of the month.'],
];

/** /dashboard/screening/settings: overview, profile, team, API key rotation, notifications, thresholds. */
export function SettingsPage() {
  usePageTitle('Account Settings');
  const summary = useGetAccountSummaryQuery();
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="Account Settings"
        description="Your organisation, its API key and what Vigil tells you about."
      />
      <QueryView query={summary} errorTitle="Failed to load account information">
        {(data) => (
          <div className="flex flex-col gap-6">
            <Overview summary={data} />
            <ProfileCard summary={data} />
            <TeamSection />
            <ApiKeyCard summary={data} />
            <NotificationsCard />
            <ThresholdsCard summary={data} />
          </div>
        )}
      </QueryView>
    </div>
  );
}

function Overview({ summary }: { summary: AccountSummary }) {
  const { client } = summary;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Overview</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <Item label="Organisation" value={client.client_name} />
          <Item label="Plan" value={<span className="capitalize">{client.tier}</span>} />
          <Item
            label="Usage"
            value={`${countFormat.format(client.usage_month)} / ${countFormat.format(client.quota_month)} (${summary.usage_percent}%)`}
          />
          <Item
            label="Subscription"
            value={<span className="capitalize">{client.subscription_status.replace('_', ' ')}</span>}
          />
        </dl>
      </CardContent>
    </Card>
  );
}

function Item({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{value}</dd>
    </div>
  );
}

function ProfileCard({ summary }: { summary: AccountSummary }) {
  const mayChange = useMayChange('owner');
  const [update, state] = useUpdateProfileMutation();
  const form = useForm<ProfileForm>({
    resolver: zodResolver(profileSchema),
    defaultValues: { client_name: summary.client.client_name, contact_email: summary.client.contact_email ?? '' },
  });
  const save = form.handleSubmit(async (values) => {
    try {
      await update(values).unwrap();
      toast({ title: 'Profile Saved', description: 'Your organisation details were updated.' });
    } catch (error) {
      toast({
        title: 'Error',
        description: `Failed to save profile information: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    }
  });
  const errors = form.formState.errors;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void save(e)} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-2">
            <Label htmlFor="client-name">Organisation name</Label>
            <Input
              id="client-name"
              readOnly={!mayChange}
              aria-invalid={errors.client_name ? true : undefined}
              aria-describedby="client-name-error"
              {...form.register('client_name')}
            />
            <p id="client-name-error" className="min-h-4 text-xs text-destructive-foreground">
              {errors.client_name?.message}
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="contact-email">Contact email</Label>
            <Input
              id="contact-email"
              type="email"
              readOnly={!mayChange}
              aria-invalid={errors.contact_email ? true : undefined}
              aria-describedby="contact-email-error"
              {...form.register('contact_email')}
            />
            <p id="contact-email-error" className="min-h-4 text-xs text-destructive-foreground">
              {errors.contact_email?.message}
            </p>
          </div>
          <div>
            {mayChange ? (
              <Button type="submit" disabled={state.isLoading}>
                {state.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <Save aria-hidden />} Save profile
              </Button>
            ) : (
              <RoleNote minimum="owner" />
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** Rotation: confirm, then the new key is shown once; the old one stops working at once. */
function ApiKeyCard({ summary }: { summary: AccountSummary }) {
  const mayChange = useMayChange('owner');
  const [regenerate, state] = useRegenerateApiKeyMutation();
  const [confirming, setConfirming] = useState(false);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const key = summary.api_key;

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const rotate = async () => {
    try {
      const client = await regenerate().unwrap();
      setNewKey(client.api_key);
      setConfirming(false);
      toast({
        title: 'API Key Regenerated',
        description: 'Your previous key no longer works. Copy the new one now: it is shown only once.',
      });
    } catch (error) {
      setConfirming(false);
      toast({
        title: 'Error',
        description: `Failed to regenerate API key: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    }
  };

  const copy = async () => {
    if (!newKey) return;
    try {
      await navigator.clipboard.writeText(newKey);
      setCopied(true);
      toast({ title: 'API Key Copied', description: 'The key is on your clipboard.' });
    } catch {
      toast({ title: 'Copy Failed', description: 'Your browser did not allow copying.', variant: 'destructive' });
    }
  };

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>API key management</CardTitle>
          <CardDescription>For your integrations. The dashboard itself only needs your sign-in.</CardDescription>
        </div>
        <Badge
          tone={key.status === 'active' ? 'success' : 'warning'}
          data-testid="api-key-state"
          className="capitalize"
        >
          {key.status === 'none' ? 'No key' : key.status}
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Item label="Key starts with" value={key.prefix ? <span className="font-mono">{key.prefix}…</span> : '—'} />
          <Item label="Created" value={formatDateTime(key.created_at)} />
          {key.revoked_at && <Item label="Revoked" value={formatDateTime(key.revoked_at)} />}
        </dl>
        {newKey && (
          <div className="flex flex-col gap-2 rounded-lg border border-warning/50 bg-warning-soft p-3">
            <p className="font-medium text-warning-foreground">Your new API key — shown only this once:</p>
            <div className="flex flex-wrap items-center gap-2">
              <code className="min-w-0 flex-1 font-mono text-xs break-all" data-testid="new-api-key">
                {newKey}
              </code>
              <Button size="sm" variant="outline" onClick={() => void copy()}>
                {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? 'Copied' : 'Copy'}
              </Button>
            </div>
          </div>
        )}
        <div>
          {mayChange ? (
            <Button variant="outline" onClick={() => setConfirming(true)}>
              <KeyRound aria-hidden /> {key.status === 'active' ? 'Regenerate API key' : 'Generate API key'}
            </Button>
          ) : (
            <RoleNote minimum="owner" />
          )}
        </div>
      </CardContent>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogTitle>{key.status === 'active' ? 'Regenerate the API key?' : 'Generate an API key?'}</DialogTitle>
          <DialogDescription>
            {key.status === 'active'
              ? `The key starting ${key.prefix ?? ''} stops working immediately for every integration that uses it. The new key is shown once.`
              : 'The new key is shown once; store it in your secrets manager.'}
          </DialogDescription>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant={key.status === 'active' ? 'destructive' : 'primary'}
              onClick={() => void rotate()}
              disabled={state.isLoading}
            >
              {state.isLoading && <Loader2 className="animate-spin" aria-hidden />}
              {key.status === 'active' ? 'Regenerate and revoke the old key' : 'Generate key'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function NotificationsCard() {
  const mayChange = useMayChange('supervisor');
  const settings = useGetNotificationSettingsQuery();
  const [update, state] = useUpdateNotificationSettingsMutation();
  const [draft, setDraft] = useState<NotificationSettings | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);

  const save = async () => {
    if (!draft) return;
    try {
      await update(draft).unwrap();
      toast({ title: 'Settings Saved', description: 'Your notification preferences were updated.' });
    } catch {
      toast({ title: 'Error', description: 'Failed to save notification settings', variant: 'destructive' });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification preferences</CardTitle>
      </CardHeader>
      <CardContent>
        <QueryView query={settings} errorTitle="Failed to load notification settings">
          {() =>
            draft && (
              <div className="flex flex-col gap-4">
                <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                  {NOTIFICATIONS.map(([flag, label, hint]) => (
                    <li key={flag} className="flex items-start gap-3">
                      <Checkbox
                        id={`notify-${flag}`}
                        disabled={!mayChange}
                        checked={draft[flag]}
                        onCheckedChange={(checked) => setDraft({ ...draft, [flag]: checked === true })}
                      />
                      <div>
                        <Label htmlFor={`notify-${flag}`}>{label}</Label>
                        <p className="text-xs text-muted-foreground">{hint}</p>
                      </div>
                    </li>
                  ))}
                </ul>
                <div>
                  {mayChange ? (
                    <Button onClick={() => void save()} disabled={state.isLoading}>
                      {state.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <Save aria-hidden />} Save
                      preferences
                    </Button>
                  ) : (
                    <RoleNote minimum="supervisor" />
                  )}
                </div>
              </div>
            )
          }
        </QueryView>
      </CardContent>
    </Card>
  );
}

const THRESHOLD_LABELS: readonly [keyof typeof DEFAULT_THRESHOLDS, string][] = [
  ['HIGH_SCORE', 'Block at score'],
  ['MEDIUM_SCORE', 'Review at score'],
  ['DB_SIM_THRESHOLD', 'Candidate similarity'],
  ['TRIGRAM_HITS_MIN', 'Minimum trigram hits'],
  ['LEV_DISTANCE_MAX', 'Maximum edit distance'],
];

/** Read-only for clients: administrators set them. */
function ThresholdsCard({ summary }: { summary: AccountSummary }) {
  const custom = summary.client.threshold_config;
  const values = custom ?? DEFAULT_THRESHOLDS;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>Matching thresholds</CardTitle>
          <CardDescription>
            Set by Vigil's administrators for your organisation; contact support to change them.
          </CardDescription>
        </div>
        <Badge tone={custom ? 'brand' : 'neutral'}>{custom ? 'Custom Thresholds' : 'Global defaults'}</Badge>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" data-testid="thresholds">
          {THRESHOLD_LABELS.map(([key, label]) => (
            <Item key={key} label={label} value={<span className="tabular-nums">{values[key]}</span>} />
          ))}
        </dl>
        <p className="mt-3 text-sm" data-testid="matching-algorithm">
          Matching algorithm:{' '}
          {custom?.ALGORITHM
            ? `${custom.ALGORITHM} (pinned by your administrator)`
            : `${SELECTABLE_ALGORITHMS.at(-1)} (always the newest)`}
        </p>
      </CardContent>
    </Card>
  );
}
