import type { Session } from '@vigil/proto';
import { Alert, AlertDescription, Button, Card, CardContent, CardHeader, Input, Label, Spinner } from '@vigil/ui';
import { errorMessage, isApiError } from '@vigil/ui';
import { secondFactorDue } from '@vigil/ui/session';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  useAbandonSessionMutation,
  useChallengeFactorMutation,
  useEnrollTotpMutation,
  useVerifyFactorMutation,
} from './second-factor.api.js';

const SIX_DIGITS = /^\d{6}$/;

type Enrolment = { factorId: string; qr: string; secret: string };

/**
 * The console's second step (issue #33: every admin route needs aal2, decided by the gateway). An
 * admin with an authenticator app enters its code; one without is enrolled here first, which the
 * password-only session may do only while the account has no verified factor (auth's rule), and
 * is then shown the recovery codes once. Only the session raised to aal2 is handed on.
 */
export function AdminSecondFactor({
  session,
  onVerified,
  onCancel,
}: {
  session: Session;
  onVerified: (raised: Session) => void;
  onCancel: () => void;
}) {
  const factor = secondFactorDue(session);
  const accessToken = session.access_token;
  const [enroll, enrolling] = useEnrollTotpMutation();
  const [challenge] = useChallengeFactorMutation();
  const [verify] = useVerifyFactorMutation();
  const [abandon] = useAbandonSessionMutation();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<{ raised: Session; recoveryCodes: string[] } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  useEffect(() => {
    if (factor || started.current) return;
    started.current = true;
    enroll({ accessToken })
      .unwrap()
      .then((reply) => setEnrolment({ factorId: reply.id, qr: reply.totp.qr_code, secret: reply.totp.secret }))
      .catch((error: unknown) => setProblem(errorMessage(error)));
  }, [factor, enroll, accessToken]);

  const factorId = factor?.id ?? enrolment?.factorId;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!SIX_DIGITS.test(trimmed)) {
      setProblem('Enter the 6-digit code from your authenticator app.');
      input.current?.focus();
      return;
    }
    if (!factorId) return;
    setBusy(true);
    setProblem(null);
    try {
      const { id: challengeId } = await challenge({ factorId, accessToken }).unwrap();
      const { recovery_codes: recoveryCodes, ...raised } = await verify({
        factorId,
        challengeId,
        code: trimmed,
        accessToken,
      }).unwrap();
      if (recoveryCodes) setSaved({ raised, recoveryCodes });
      else onVerified(raised);
    } catch (error) {
      setBusy(false);
      setCode('');
      setProblem(
        isApiError(error) && error.code === 'INVALID_MFA_CODE'
          ? 'That code is not valid. Check your authenticator app and enter the current code.'
          : errorMessage(error),
      );
      input.current?.focus();
    }
  };

  const cancel = () => {
    void abandon({ accessToken })
      .unwrap()
      .catch(() => undefined);
    onCancel();
  };

  if (saved) {
    return (
      <Card className="w-full max-w-md">
        <CardHeader className="gap-2 p-8 pb-4">
          <h1 className="text-2xl font-semibold tracking-tight">Save your recovery codes</h1>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 px-8 pb-8">
          <p className="text-sm text-muted-foreground">
            Each code signs you in once if you lose your authenticator app. They are shown only now.
          </p>
          <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
            {saved.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button size="lg" onClick={() => onVerified(saved.raised)}>
            Continue to the console
          </Button>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card className="w-full max-w-md">
      <CardHeader className="gap-2 p-8 pb-4">
        <h1 className="text-2xl font-semibold tracking-tight">
          {factor ? 'Two-step verification' : 'Set up two-step verification'}
        </h1>
      </CardHeader>
      <CardContent className="px-8 pb-8">
        <form
          onSubmit={(event) => void onSubmit(event)}
          noValidate
          className="flex flex-col gap-4"
          aria-label="Two-step verification"
        >
          {factor ? (
            <p className="text-sm text-muted-foreground">
              Open your authenticator app and enter the 6-digit code for{' '}
              <span className="font-medium text-foreground">{session.user.email}</span>.
            </p>
          ) : enrolment ? (
            <>
              <p className="text-sm text-muted-foreground">
                The admin console needs an authenticator app. Scan this code with it, then enter the 6-digit code it
                shows.
              </p>
              <img
                src={enrolment.qr}
                alt="QR code for your authenticator app"
                className="size-40 self-center rounded-lg border border-border bg-white p-2"
              />
              <p className="text-xs text-muted-foreground">
                Or enter this key: <code className="font-mono break-all">{enrolment.secret}</code>
              </p>
            </>
          ) : (
            enrolling.isLoading && <Spinner label="Preparing your authenticator..." />
          )}
          {problem && (
            <Alert tone="destructive">
              <AlertDescription id="mfa-code-error" role="alert">
                {problem}
              </AlertDescription>
            </Alert>
          )}
          {factorId && (
            <>
              <div className="flex flex-col gap-2">
                <Label htmlFor="mfa-code">Authentication code</Label>
                <Input
                  ref={input}
                  id="mfa-code"
                  autoFocus
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  aria-invalid={problem !== null}
                  aria-describedby={problem ? 'mfa-code-error' : undefined}
                  onChange={(event) => setCode(event.target.value)}
                  className="font-mono tracking-[0.3em]"
                />
              </div>
              <Button type="submit" size="lg" disabled={busy}>
                {busy && <Loader2 className="animate-spin" aria-hidden />} {busy ? 'Verifying...' : 'Verify'}
              </Button>
            </>
          )}
          <Button type="button" variant="ghost" onClick={cancel} disabled={busy}>
            Back to Sign In
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
