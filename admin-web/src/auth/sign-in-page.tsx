import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  AlertDescription,
  AlertTitle,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  Checkbox,
  Input,
  Label,
  VigilLogo,
} from '@vigil/ui';
import { AlertCircle, Eye, EyeOff, Loader2, LockKeyhole } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { PlatformStatus } from '../health/platform-status.js';
import { useSignInMutation } from './auth.api.js';
import { useAuth, useStartSession } from '@vigil/ui/session';
import type { Session } from '@vigil/proto';
import { needsSecondStep } from './admin-assurance.js';
import { AdminSecondFactor } from './admin-second-factor.js';
import { describeSignInError } from './sign-in-error.js';
import { signInSchema, toPasswordGrant, type SignInInput, type SignInValues } from './sign-in.schema.js';

/** Where the console opens once signed in. */
export const CONSOLE_HOME = '/dashboard/admin';

export function SignInPage() {
  const { status } = useAuth();
  const location = useLocation();
  // Someone already signed in (a reload of /login, the back button) goes where they were headed.
  if (status === 'authenticated') return <Navigate to={returnPath(location.state)} replace />;
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,1fr)_minmax(0,1.05fr)]">
      {/* First in the document so a phone shows the form before the product story. */}
      <main className="flex flex-col items-center justify-center gap-8 bg-background px-6 py-12 sm:px-12">
        <VigilLogo suffix="Admin" className="self-start sm:self-center lg:hidden" />
        <SignInForm />
      </main>

      <aside className="relative flex flex-col gap-10 overflow-hidden bg-ink px-6 py-10 text-ink-foreground sm:px-12 lg:order-first lg:py-12">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_24rem_at_0%_0%,oklch(0.45_0.17_264/0.5),transparent_70%)]"
        />
        <div className="relative hidden lg:block">
          <VigilLogo
            suffix="Admin"
            className="[&>span:last-child]:bg-white/10 [&>span:last-child]:text-ink-foreground/80"
          />
        </div>
        <div className="relative flex max-w-lg flex-col gap-4">
          <p className="text-3xl font-semibold tracking-tight sm:text-4xl">The Vigil admin console</p>
          <p className="text-base leading-relaxed text-ink-foreground/75">
            Monitor clients, security events, quotas, system health and per-client matching thresholds.
          </p>
          <p className="flex items-center gap-2 text-sm text-ink-foreground/70">
            <LockKeyhole className="size-4 shrink-0" aria-hidden />
            Admin dashboard access is restricted to Vigil team members only.
          </p>
        </div>
        <PlatformStatus className="relative mt-auto max-w-lg text-foreground" />
      </aside>
    </div>
  );
}

function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : CONSOLE_HOME;
}

function SignInForm() {
  const [pending, setPending] = useState<{ session: Session; remember: boolean } | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const [signIn, { isLoading, error, reset }] = useSignInMutation();
  const startSession = useStartSession();
  const navigate = useNavigate();
  const location = useLocation();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '', rememberMe: false },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  // Only a valid form reaches here: react-hook-form runs the schema first and stops on any error.
  const onSubmit = handleSubmit(async (values) => {
    reset();
    const result = await signIn(toPasswordGrant(values));
    if (result.data === undefined) return;
    // The password alone opens no admin route: the session is kept only once a code raised it to aal2.
    if (needsSecondStep(result.data)) {
      setPending({ session: result.data, remember: values.rememberMe });
      return;
    }
    // Non-admins are kept signed in too: the console then shows them Access Denied with their
    // email and Sign Out (spec §2), decided again by the gateway on every admin route.
    startSession(result.data, values.rememberMe);
    void navigate(returnPath(location.state), { replace: true });
  });

  if (pending) {
    return (
      <AdminSecondFactor
        session={pending.session}
        onVerified={(raised) => {
          startSession(raised, pending.remember);
          void navigate(returnPath(location.state), { replace: true });
        }}
        onCancel={() => setPending(null)}
      />
    );
  }

  return (
    <Card className="w-full max-w-md">
      <CardHeader className="gap-2 p-8 pb-6">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to the admin console</h1>
        <CardDescription>Use your Vigil team account.</CardDescription>
      </CardHeader>
      <CardContent className="px-8 pb-8">
        <form noValidate onSubmit={onSubmit} aria-label="Sign in" className="flex flex-col gap-5">
          {error !== undefined && (
            <Alert tone="destructive">
              <AlertCircle aria-hidden />
              <div>
                <AlertTitle>Sign-in failed</AlertTitle>
                <AlertDescription>{describeSignInError(error)}</AlertDescription>
              </div>
            </Alert>
          )}
          <div className="flex flex-col gap-2">
            <Label htmlFor="email">Email</Label>
            <Input
              id="email"
              type="email"
              autoComplete="username"
              placeholder="you@vigil.example"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? 'email-error' : undefined}
              {...register('email')}
            />
            {errors.email && (
              <p id="email-error" className="text-sm text-destructive-foreground">
                {errors.email.message}
              </p>
            )}
          </div>

          <div className="flex flex-col gap-2">
            <Label htmlFor="password">Password</Label>
            <div className="relative">
              <Input
                id="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                className="pr-11"
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? 'password-error' : undefined}
                {...register('password')}
              />
              <Button
                variant="ghost"
                size="icon"
                className="absolute inset-y-0 right-0 h-10 w-10 text-muted-foreground hover:bg-transparent hover:text-foreground"
                aria-label={showPassword ? 'Hide password' : 'Show password'}
                aria-pressed={showPassword}
                onClick={() => setShowPassword((shown) => !shown)}
              >
                {showPassword ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
              </Button>
            </div>
            {errors.password && (
              <p id="password-error" className="text-sm text-destructive-foreground">
                {errors.password.message}
              </p>
            )}
          </div>

          <div className="flex items-center gap-2.5">
            <Controller
              control={control}
              name="rememberMe"
              render={({ field }) => (
                <Checkbox
                  id="remember-me"
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
              )}
            />
            <Label htmlFor="remember-me" className="font-normal text-muted-foreground">
              Remember me
            </Label>
          </div>

          <Button type="submit" size="lg" disabled={isLoading} className="mt-1 w-full">
            {isLoading ? (
              <>
                <Loader2 className="animate-spin" aria-hidden /> Signing in…
              </>
            ) : (
              'Sign In'
            )}
          </Button>
        </form>
        <p className="mt-6 text-center text-xs text-muted-foreground">
          Forgotten your password? Ask a Vigil platform administrator to reset it.
        </p>
      </CardContent>
    </Card>
  );
}
