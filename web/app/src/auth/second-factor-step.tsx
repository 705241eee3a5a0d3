import type { Factor, Session } from '@vigil/proto';
import { Button, Input, Label, errorMessage, isApiError } from '@vigil/ui';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useChallengeFactorMutation, useLogoutMutation, useVerifyFactorMutation } from './auth.api.js';

const SIX_DIGITS = /^\d{6}$/;

/**
 * The code step of a sign-in for a user with an authenticator app. The session
 * from the password (or Google) step stays here, unused and unstored, until the
 * auth service accepts a code and answers a session raised to aal2; only that
 * one is handed on. Cancelling ends the half-finished session at the server.
 */
export function SecondFactorStep({
  session,
  factor,
  onVerified,
  onCancel,
}: {
  session: Session;
  factor: Factor;
  onVerified: (raised: Session) => Promise<void> | void;
  onCancel: () => void;
}) {
  const [challenge] = useChallengeFactorMutation();
  const [verify] = useVerifyFactorMutation();
  const [logout] = useLogoutMutation();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!SIX_DIGITS.test(trimmed)) {
      setProblem('Enter the 6-digit code from your authenticator app.');
      input.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const accessToken = session.access_token;
      const { id: challengeId } = await challenge({ factorId: factor.id, accessToken }).unwrap();
      const { recovery_codes: _unused, ...raised } = await verify({
        factorId: factor.id,
        challengeId,
        code: trimmed,
        accessToken,
      }).unwrap();
      await onVerified(raised);
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
    void logout({ scope: 'local', accessToken: session.access_token })
      .unwrap()
      .catch(() => undefined);
    onCancel();
  };

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      className="flex flex-col gap-4"
      aria-label="Two-step verification"
    >
      <p className="text-sm text-muted-foreground">
        Open your authenticator app and enter the 6-digit code for{' '}
        <span className="font-medium text-foreground">{session.user.email}</span>.
      </p>
      <div className="flex flex-col gap-2">
        <Label htmlFor="mfa-code">Authentication code</Label>
        <Input
          ref={input}
          id="mfa-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          aria-invalid={problem !== null}
          aria-describedby={problem ? 'mfa-code-error' : undefined}
          onChange={(event) => setCode(event.target.value)}
          className="font-mono tracking-[0.3em]"
        />
        {problem && (
          <p id="mfa-code-error" role="alert" className="text-sm text-destructive-foreground">
            {problem}
          </p>
        )}
      </div>
      <Button type="submit" size="lg" disabled={busy}>
        {busy && <Loader2 className="animate-spin" aria-hidden />} {busy ? 'Verifying...' : 'Verify'}
      </Button>
      <Button type="button" variant="ghost" onClick={cancel} disabled={busy}>
        Back to Sign In
      </Button>
    </form>
  );
}
