import { LoadError, Loading } from '@vigil/ui';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  toast,
  errorMessage,
} from '@vigil/ui';
import { Loader2, MonitorSmartphone, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useAppSelector } from '../app/hooks.js';
import {
  useChallengeFactorMutation,
  useEnrollTotpMutation,
  useGetUserQuery,
  useListSessionsQuery,
  useRevokeSessionMutation,
  useVerifyFactorMutation,
} from '../auth/auth.api.js';
import { useStartSession } from '@vigil/ui/session';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** Signed-in devices (with revoke) and TOTP enrolment. */
export function SecuritySection() {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <SessionsCard />
      <MfaCard />
    </div>
  );
}

function SessionsCard() {
  const sessions = useListSessionsQuery();
  const [revoke] = useRevokeSessionMutation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Active sessions</CardTitle>
        <CardDescription>Browsers and devices signed in to your account.</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isLoading ? (
          <Loading />
        ) : sessions.isError ? (
          <LoadError title="Failed to load sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : sessions.data?.sessions.length === 0 ? (
          <p className="text-sm text-muted-foreground">No active sessions.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border">
            {sessions.data?.sessions.map((session) => (
              <li key={session.id} className="flex items-center gap-3 py-3 text-sm">
                <MonitorSmartphone className="size-5 shrink-0 text-muted-foreground" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{session.user_agent ?? 'Unknown browser'}</p>
                  <p className="text-xs text-muted-foreground">
                    Signed in {when.format(new Date(session.created_at))}
                    {session.ip ? ` · ${session.ip}` : ''}
                  </p>
                </div>
                {session.current ? (
                  <Badge tone="brand">This browser</Badge>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() =>
                      void revoke(session.id)
                        .unwrap()
                        .then(() => toast({ title: 'Session signed out' }))
                        .catch((error: unknown) =>
                          toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
                        )
                    }
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function MfaCard() {
  const user = useGetUserQuery();
  const startSession = useStartSession();
  // The raised session replaces the current one where it is kept: "Remember me" must survive enrolment.
  const remember = useAppSelector((state) => state.auth.remember);
  const [enroll, enrolling] = useEnrollTotpMutation();
  const [challenge] = useChallengeFactorMutation();
  const [verify, verifying] = useVerifyFactorMutation();
  const [pending, setPending] = useState<{ id: string; qr: string; secret: string } | null>(null);
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const verified = user.data?.factors.filter((factor) => factor.status === 'verified') ?? [];

  const start = async () => {
    try {
      const reply = await enroll({ friendly_name: 'Authenticator app' }).unwrap();
      setPending({ id: reply.id, qr: reply.totp.qr_code, secret: reply.totp.secret });
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const confirm = async () => {
    if (!pending) return;
    try {
      const { id: challengeId } = await challenge({ factorId: pending.id }).unwrap();
      const { recovery_codes, ...raised } = await verify({
        factorId: pending.id,
        challengeId,
        code: code.trim(),
      }).unwrap();
      startSession(raised, remember);
      setRecoveryCodes(recovery_codes ?? null);
      setPending(null);
      setCode('');
      toast({
        title: 'Two-factor authentication on',
        description: 'Your authenticator app is now required at sign-in.',
      });
      void user.refetch();
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-factor authentication</CardTitle>
        <CardDescription>Protect your account with an authenticator app (TOTP).</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {user.isLoading ? (
          <Loading />
        ) : user.isError ? (
          <LoadError
            title="Failed to load your security settings"
            error={user.error}
            onRetry={() => void user.refetch()}
          />
        ) : verified.length > 0 ? (
          <p className="flex items-center gap-2 text-sm">
            <ShieldCheck className="size-5 text-success" aria-hidden />
            <span>
              Enabled · {verified.length} authenticator{verified.length > 1 ? 's' : ''}
            </span>
          </p>
        ) : pending ? (
          <div className="flex flex-col gap-3">
            <img
              src={pending.qr}
              alt="QR code for your authenticator app"
              className="size-40 rounded-lg border border-border bg-white p-2"
            />
            <p className="text-xs text-muted-foreground">
              Or enter this key: <code className="font-mono break-all">{pending.secret}</code>
            </p>
            <Label htmlFor="totp-code">6-digit code</Label>
            <Input
              id="totp-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <Button onClick={() => void confirm()} disabled={verifying.isLoading || code.trim().length !== 6}>
              {verifying.isLoading && <Loader2 className="animate-spin" aria-hidden />} Verify and turn on
            </Button>
          </div>
        ) : (
          <Button variant="outline" className="self-start" onClick={() => void start()} disabled={enrolling.isLoading}>
            {enrolling.isLoading && <Loader2 className="animate-spin" aria-hidden />} Set up authenticator app
          </Button>
        )}
        {recoveryCodes && (
          <div className="rounded-lg border border-warning/40 bg-warning-soft p-3 text-sm text-warning-foreground">
            <p className="font-semibold">Save your recovery codes — they are shown once.</p>
            <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-xs">
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
