import { zodResolver } from '@hookform/resolvers/zod';
import type { Factor, Session } from '@vigil/proto';
import {
  Alert,
  AlertDescription,
  AlertTitle,
  Button,
  Checkbox,
  Input,
  Label,
  Spinner,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
  errorMessage,
  isApiError,
} from '@vigil/ui';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../shell/page-title.js';
import { AuthCard, FieldError } from './auth-card.js';
import {
  useResendConfirmationMutation,
  useResetPasswordMutation,
  useSignInMutation,
  useUnlockAccountMutation,
  useSignUpMutation,
  useStartGoogleMutation,
  useVerifySignupMutation,
} from './auth.api.js';
import {
  isCompanyEmail,
  newPasswordSchema,
  signInFormSchema,
  signUpFormSchema,
  type NewPasswordForm,
  type SignInForm,
  type SignUpForm,
} from './login-forms.js';
import { FullNameField, NewPasswordFields, TermsField } from './new-account-fields.js';
import { PasswordInput } from './password-input.js';
import { secondFactorDue } from '@vigil/ui/session';
import { SecondFactorStep } from './second-factor-step.js';
import { useRouteAfterSignIn } from './post-sign-in.js';
import { splitServerMessage } from './server-message.js';
import { useAuth, useStartSession } from '@vigil/ui/session';

type Tab = 'sign-in' | 'sign-up';

export function LoginPage() {
  usePageTitle('Sign In');
  const [params, setParams] = useSearchParams();
  const type = params.get('type');
  const token = params.get('token');
  const [tab, setTab] = useState<Tab>(params.get('tab') === 'sign-up' ? 'sign-up' : 'sign-in');

  const [secondFactor, setSecondFactor] = useState<PendingSecondFactor | null>(null);
  const startSession = useStartSession();
  const routeAfterSignIn = useRouteAfterSignIn();

  if (type === 'signup' && token) return <ConfirmEmail token={token} onDone={() => setParams({}, { replace: true })} />;
  if (type === 'recovery' && token)
    return <ResetPassword token={token} onDone={() => setParams({}, { replace: true })} />;
  if (type === 'unlock' && token)
    return <UnlockAccount token={token} onDone={() => setParams({}, { replace: true })} />;
  if (secondFactor) {
    return (
      <AuthCard title="Two-step verification" lead="Your account is protected with an authenticator app.">
        <SecondFactorStep
          session={secondFactor.session}
          factor={secondFactor.factor}
          onCancel={() => setSecondFactor(null)}
          onVerified={async (raised) => {
            startSession(raised, secondFactor.remember);
            toast({ title: 'Signed in', description: `Welcome, ${raised.user.full_name ?? raised.user.email}.` });
            await routeAfterSignIn(raised);
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Welcome to Vigil" lead="Sign in to your account, or create one to choose a plan.">
      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
        <TabsList className="grid w-full grid-cols-2" aria-label="Sign in or sign up">
          <TabsTrigger value="sign-in">Sign In</TabsTrigger>
          <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
        </TabsList>
        <TabsContent value="sign-in">
          <SignInPanel onSecondFactor={setSecondFactor} />
        </TabsContent>
        <TabsContent value="sign-up">
          <SignUpPanel onCreated={() => setTab('sign-in')} />
        </TabsContent>
      </Tabs>
      <div className="my-6 flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px flex-1 bg-border" /> or <span className="h-px flex-1 bg-border" />
      </div>
      <GoogleButton />
    </AuthCard>
  );
}

type PendingSecondFactor = { session: Session; factor: Factor; remember: boolean };

function SignInPanel({ onSecondFactor }: { onSecondFactor: (pending: PendingSecondFactor) => void }) {
  const [signIn, { isLoading }] = useSignInMutation();
  const startSession = useStartSession();
  const routeAfterSignIn = useRouteAfterSignIn();
  const [redirecting, setRedirecting] = useState(false);
  const form = useForm<SignInForm>({
    resolver: zodResolver(signInFormSchema),
    defaultValues: { email: '', password: '', remember_me: false },
  });
  const { errors } = form.formState;
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  // Set once the server answers that sign-in is locked: the owner may then add an authenticator code.
  const [locked, setLocked] = useState(false);
  const [mfaCode, setMfaCode] = useState('');

  const onSubmit = form.handleSubmit(async (values) => {
    setUnconfirmed(null);
    const code = mfaCode.replace(/\s/g, '');
    try {
      const session = await signIn(locked && code ? { ...values, mfa_code: code } : values).unwrap();
      // With an authenticator app the password alone is not a sign-in: nothing is kept until the code step.
      const factor = secondFactorDue(session);
      if (factor) {
        onSecondFactor({ session, factor, remember: values.remember_me });
        return;
      }
      startSession(session, values.remember_me);
      setRedirecting(true);
      toast({ title: 'Signed in', description: `Welcome, ${session.user.full_name ?? session.user.email}.` });
      await routeAfterSignIn(session);
    } catch (error) {
      // An unconfirmed address stays on the form until the next attempt: a 5-second toast is easy to miss.
      setUnconfirmed(isApiError(error) && error.code === 'EMAIL_NOT_CONFIRMED' ? values.email : null);
      if (isApiError(error) && error.code === 'RATE_LIMITED') setLocked(true);
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Sign in">
      {unconfirmed && (
        <Alert tone="warning" data-testid="email-not-confirmed">
          <AlertTitle>Email not confirmed</AlertTitle>
          <AlertDescription>
            Confirm <strong className="break-all">{unconfirmed}</strong> with the link in the message we sent when you
            signed up, then sign in.
            <div className="mt-3">
              <ResendConfirmationButton email={unconfirmed} size="sm" />
            </div>
          </AlertDescription>
        </Alert>
      )}
      {locked && (
        <Alert tone="warning" data-testid="sign-in-locked">
          <AlertTitle>Sign-in temporarily locked</AlertTitle>
          <AlertDescription>
            Too many wrong passwords were tried for this account. If you use an authenticator app, enter its code with
            your password to sign in now; otherwise open the unlock link we emailed to the account&apos;s address.
          </AlertDescription>
        </Alert>
      )}
      <div className="flex flex-col gap-2">
        <Label htmlFor="signin-email">Email</Label>
        <Input
          id="signin-email"
          type="email"
          autoComplete="email"
          aria-invalid={!!errors.email}
          aria-describedby="signin-email-error"
          {...form.register('email')}
        />
        <FieldError id="signin-email-error" message={errors.email?.message} />
      </div>
      <div className="flex flex-col gap-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="signin-password">Password</Label>
          <Link to="/forgot-password" className="text-sm font-medium text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <PasswordInput
          id="signin-password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          aria-describedby="signin-password-error"
          {...form.register('password')}
        />
        <FieldError id="signin-password-error" message={errors.password?.message} />
      </div>
      {locked && (
        <div className="flex flex-col gap-2">
          <Label htmlFor="signin-mfa-code">Authentication code</Label>
          <Input
            id="signin-mfa-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="123456"
            value={mfaCode}
            onChange={(e) => setMfaCode(e.target.value)}
          />
        </div>
      )}
      <div className="flex items-center gap-2">
        <Controller
          control={form.control}
          name="remember_me"
          render={({ field }) => (
            <Checkbox id="remember-me" checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
          )}
        />
        <Label htmlFor="remember-me" className="font-normal">
          Remember me for 30 days
        </Label>
      </div>
      <Button type="submit" size="lg" disabled={isLoading || redirecting}>
        {(isLoading || redirecting) && <Loader2 className="animate-spin" aria-hidden />}
        {redirecting ? 'Signing you in...' : 'Sign In'}
      </Button>
    </form>
  );
}

function SignUpPanel({ onCreated }: { onCreated: () => void }) {
  const [signUp, { isLoading }] = useSignUpMutation();
  const [created, setCreated] = useState<string | null>(null);
  const [createdFor, setCreatedFor] = useState<string | null>(null);
  const form = useForm<SignUpForm>({
    resolver: zodResolver(signUpFormSchema),
    defaultValues: {
      full_name: '',
      email: '',
      password: '',
      confirm_password: '',
      invitation_code: '',
      accepted_terms: false,
    },
  });
  const { errors } = form.formState;
  const companyEmail = isCompanyEmail(form.watch('email') ?? '');

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const reply = await signUp({
        full_name: values.full_name,
        email: values.email,
        password: values.password,
        confirm_password: values.confirm_password,
        accepted_terms: true,
        ...(companyEmail && values.invitation_code ? { invitation_code: values.invitation_code } : {}),
      }).unwrap();
      toast({ title: reply.admin ? 'Admin account created' : 'Account created', description: reply.message });
      setCreated(reply.message);
      setCreatedFor(values.email);
      form.reset();
      if (reply.admin) onCreated();
    } catch (error) {
      const { title, description } = splitServerMessage(errorMessage(error));
      toast({ title, description, variant: 'destructive' });
    }
  });

  if (created) {
    return (
      <div
        role="status"
        className="flex flex-col gap-4 rounded-lg border border-success/30 bg-success-soft p-4 text-sm text-success-foreground"
      >
        <p className="font-semibold">{created}</p>
        {createdFor && (
          <p data-testid="signup-address">
            We sent the confirmation link to <strong>{createdFor}</strong>. Open it to activate your account, then sign
            in.
          </p>
        )}
        {createdFor && <ResendConfirmationButton email={createdFor} />}
        <Button variant="outline" onClick={() => setCreated(null)}>
          Create another account
        </Button>
      </div>
    );
  }

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Sign up">
        <FullNameField id="signup-name" />
        <div className="flex flex-col gap-2">
          <Label htmlFor="signup-email">Email</Label>
          <Input
            id="signup-email"
            type="email"
            autoComplete="email"
            aria-invalid={!!errors.email}
            aria-describedby="signup-email-error"
            {...form.register('email')}
          />
          <FieldError id="signup-email-error" message={errors.email?.message} />
        </div>
        <NewPasswordFields ids={{ password: 'signup-password', confirm: 'signup-confirm' }} />
        {companyEmail && (
          <div className="flex flex-col gap-2 rounded-lg border border-primary/20 bg-primary-soft/50 p-3">
            <Label htmlFor="signup-invitation">Admin invitation code</Label>
            <Input id="signup-invitation" autoComplete="off" {...form.register('invitation_code')} />
            <p className="text-xs text-muted-foreground">
              Company accounts need pre-approval and an invitation code from an administrator.
            </p>
          </div>
        )}
        <TermsField id="accept-terms" />
        <Button type="submit" size="lg" disabled={isLoading}>
          {isLoading && <Loader2 className="animate-spin" aria-hidden />} Create Account
        </Button>
      </form>
    </FormProvider>
  );
}

function GoogleButton() {
  const [startGoogle, { isLoading }] = useStartGoogleMutation();
  const onClick = async () => {
    try {
      const { url } = await startGoogle({ remember_me: false }).unwrap();
      window.location.assign(url);
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };
  return (
    <Button variant="outline" size="lg" className="w-full" onClick={() => void onClick()} disabled={isLoading}>
      {isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <GoogleMark />} Continue with Google
    </Button>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden className="size-4">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path
        fill="#FBBC05"
        d="M5.84 14.1A6.6 6.6 0 0 1 5.5 12c0-.73.13-1.44.34-2.1V7.06H2.18A11 11 0 0 0 1 12c0 1.78.43 3.46 1.18 4.94l3.66-2.84z"
      />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.06l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z"
      />
    </svg>
  );
}

/** The link in the confirmation e-mail lands here: confirm, then carry on as after a sign-in. */
/** "Resend confirmation email": the server answers the same for any address, so this says only that. */
function ResendConfirmationButton({
  email,
  className,
  size,
}: {
  email: string;
  className?: string;
  size?: 'sm' | 'md';
}) {
  const [resend, { isLoading }] = useResendConfirmationMutation();
  const [sent, setSent] = useState(false);
  const run = async () => {
    try {
      const reply = await resend({ email }).unwrap();
      setSent(true);
      toast({ title: 'Confirmation email sent', description: reply.message });
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };
  return (
    <Button variant="outline" size={size} className={className} disabled={isLoading} onClick={() => void run()}>
      {isLoading && <Loader2 className="animate-spin" aria-hidden />}
      {sent ? 'Resend again' : 'Resend confirmation email'}
    </Button>
  );
}

/** /login?type=unlock&token=…: the emailed unlock link of a locked account, used once. */
function UnlockAccount({ token, onDone }: { token: string; onDone: () => void }) {
  const [unlock] = useUnlockAccountMutation();
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // The link works once; StrictMode's double effect must not spend it twice.
    if (started.current) return;
    started.current = true;
    unlock({ token })
      .unwrap()
      .then((reply) => setOutcome({ ok: true, message: reply.message }))
      .catch((error: unknown) => setOutcome({ ok: false, message: errorMessage(error) }));
  }, [token, unlock]);

  return (
    <AuthCard title="Unlocking your account">
      {outcome ? (
        <div
          role={outcome.ok ? 'status' : 'alert'}
          className="flex flex-col gap-4 text-sm"
          data-testid="unlock-outcome"
        >
          <p className={outcome.ok ? 'text-success-foreground' : 'text-destructive-foreground'}>{outcome.message}</p>
          <Button onClick={onDone}>Back to Sign In</Button>
        </div>
      ) : (
        <Spinner label="Unlocking your account..." />
      )}
    </AuthCard>
  );
}

function ConfirmEmail({ token, onDone }: { token: string; onDone: () => void }) {
  const [verify] = useVerifySignupMutation();
  const startSession = useStartSession();
  const routeAfterSignIn = useRouteAfterSignIn();
  const { status } = useAuth();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // The token works once; StrictMode's double effect must not spend it twice.
    if (started.current || status === 'loading') return;
    started.current = true;
    verify({ token })
      .unwrap()
      .then(async (session) => {
        startSession(session, false);
        toast({ title: 'Email confirmed', description: 'Your account is ready.' });
        await routeAfterSignIn(session);
      })
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [token, status, verify, startSession, routeAfterSignIn]);

  return (
    <AuthCard title="Confirming your email">
      {failure ? (
        <div role="alert" className="flex flex-col gap-4 text-sm">
          <p className="text-destructive-foreground">{failure}</p>
          <Button onClick={onDone}>Back to Sign In</Button>
        </div>
      ) : (
        <Spinner label="Confirming your email..." />
      )}
    </AuthCard>
  );
}

function ResetPassword({ token, onDone }: { token: string; onDone: () => void }) {
  const [reset, { isLoading }] = useResetPasswordMutation();
  const form = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm_password: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const reply = await reset({ token, password: values.password }).unwrap();
      toast({ title: 'Password updated', description: reply.message });
      onDone();
    } catch (error) {
      toast({
        title: 'Error',
        description: isApiError(error) ? error.message : 'An error occurred. Please try again.',
        variant: 'destructive',
      });
    }
  });
  return (
    <AuthCard title="Choose a new password" lead="Your other sessions will be signed out.">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor="new-password">New password</Label>
          <PasswordInput
            id="new-password"
            autoComplete="new-password"
            aria-invalid={!!errors.password}
            aria-describedby="new-password-error"
            {...form.register('password')}
          />
          <FieldError id="new-password-error" message={errors.password?.message} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="new-password-confirm">Confirm new password</Label>
          <PasswordInput
            id="new-password-confirm"
            autoComplete="new-password"
            aria-invalid={!!errors.confirm_password}
            aria-describedby="new-password-confirm-error"
            {...form.register('confirm_password')}
          />
          <FieldError id="new-password-confirm-error" message={errors.confirm_password?.message} />
        </div>
        <Button type="submit" size="lg" disabled={isLoading}>
          {isLoading && <Loader2 className="animate-spin" aria-hidden />} Set New Password
        </Button>
      </form>
    </AuthCard>
  );
}
