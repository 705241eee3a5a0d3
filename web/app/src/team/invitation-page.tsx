import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type InvitationPreview, type Session } from '@vigil/proto';
import { Alert, AlertDescription, AlertTitle, Button, Input, Label, Spinner, toast, errorMessage } from '@vigil/ui';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { AuthCard, FieldError } from '../auth/auth-card.js';
import { useSignInMutation } from '../auth/auth.api.js';
import { FullNameField, NewPasswordFields, TermsField } from '../auth/new-account-fields.js';
import { PasswordInput } from '../auth/password-input.js';
import { useRouteAfterSignIn } from '../auth/post-sign-in.js';
import { secondFactorDue } from '@vigil/ui/session';
import { useAuth, useStartSession } from '@vigil/ui/session';
import { usePageTitle } from '../shell/page-title.js';
import {
  ROLE_LABELS,
  useAcceptInvitationMutation,
  useAcceptInvitationSignupMutation,
  useLookUpInvitationQuery,
} from './team.api.js';

// The same rules as proto's acceptInvitationSignupRequestSchema, in the form's shape (terms start unticked).
const joinSchema = z
  .object({
    full_name: z.string().trim().min(1, { message: 'Full name is required.' }).max(200),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` })
      .max(PASSWORD_MAX_LENGTH),
    confirm_password: z.string().min(1, { message: 'Please confirm your password.' }),
    accepted_terms: z
      .boolean()
      .refine((v) => v, { message: 'You must accept the terms of service and privacy policy.' }),
  })
  .refine((value) => value.password === value.confirm_password, {
    message: 'Passwords do not match.',
    path: ['confirm_password'],
  });
type JoinForm = z.input<typeof joinSchema>;

const signInSchema = z.object({
  password: z.string().min(1, { message: 'Please enter your password.' }).max(PASSWORD_MAX_LENGTH),
});
type SignInForm = z.input<typeof signInSchema>;

const WELCOME = { title: 'Welcome to the team', description: 'Taking you to your screening dashboard.' };

/** /invitation?token=…: the page an owner's invitation mail opens. */
export function InvitationPage() {
  usePageTitle('Team Invitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const preview = useLookUpInvitationQuery(token, { skip: !token });

  if (!token) return <Invalid message="The invitation link is incomplete. Open it again from the email." />;
  if (preview.isLoading) {
    return (
      <AuthCard title="Team Invitation">
        <Spinner label="Checking your invitation..." className="py-8" />
      </AuthCard>
    );
  }
  if (preview.isError || !preview.data) return <Invalid message={errorMessage(preview.error)} />;
  return <Invitation token={token} invitation={preview.data} />;
}

function Invalid({ message }: { message: string }) {
  return (
    <AuthCard title="Invitation not valid">
      <Alert tone="warning">
        <AlertTitle>This invitation cannot be used</AlertTitle>
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <p className="mt-6 text-sm text-muted-foreground">
        Already a member?{' '}
        <Link to="/login" className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

function Invitation({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const { user } = useAuth();
  const role = ROLE_LABELS[invitation.member_role];
  const signedInAsInvitee = user?.email === invitation.email;
  return (
    <AuthCard
      title={`Join ${invitation.client_name}`}
      lead={`${invitation.invited_by_email ?? 'A colleague'} invited ${invitation.email} to join as ${role.label.toLowerCase()}.`}
    >
      <p className="mb-6 rounded-lg bg-muted px-3 py-2 text-sm" data-testid="invitation-role">
        <span className="font-medium">{role.label}:</span> {role.summary}
      </p>
      {user && !signedInAsInvitee && (
        <Alert tone="warning" className="mb-6">
          <AlertTitle>Signed in as {user.email}</AlertTitle>
          <AlertDescription>
            This invitation is for {invitation.email}. Continue with that address below.
          </AlertDescription>
        </Alert>
      )}
      {signedInAsInvitee ? (
        <AcceptAsSignedIn token={token} />
      ) : invitation.has_account ? (
        <SignInToAccept token={token} email={invitation.email} />
      ) : (
        <SignUpToAccept token={token} email={invitation.email} />
      )}
    </AuthCard>
  );
}

/** Keeps the session the invitation answered and goes where a fresh sign-in goes. */
function useJoined() {
  const startSession = useStartSession();
  const routeAfterSignIn = useRouteAfterSignIn();
  return async (session: Session) => {
    startSession(session, false);
    await routeAfterSignIn(session, { welcome: WELCOME });
  };
}

function AcceptAsSignedIn({ token }: { token: string }) {
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  const joined = useJoined();
  const onAccept = async () => {
    try {
      await joined(await accept({ token }).unwrap());
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };
  return (
    <Button size="lg" className="w-full" onClick={() => void onAccept()} disabled={isLoading}>
      {isLoading && <Loader2 className="animate-spin" aria-hidden />} Accept Invitation
    </Button>
  );
}

function SignInToAccept({ token, email }: { token: string; email: string }) {
  const [signIn] = useSignInMutation();
  const [accept] = useAcceptInvitationMutation();
  const joined = useJoined();
  const [busy, setBusy] = useState(false);
  const form = useForm<SignInForm>({ resolver: zodResolver(signInSchema), defaultValues: { password: '' } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async ({ password }) => {
    setBusy(true);
    try {
      const session = await signIn({ email, password, remember_me: false }).unwrap();
      if (secondFactorDue(session)) {
        toast({
          title: 'Two-step verification',
          description: 'Sign in with your authenticator app first, then open the invitation link again.',
        });
        return;
      }
      await joined(await accept({ token, accessToken: session.access_token }).unwrap());
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Sign in to accept">
      <p className="text-sm text-muted-foreground">{email} already has a Vigil account: sign in to accept.</p>
      <div className="flex flex-col gap-2">
        <Label htmlFor="invitation-password">Password</Label>
        <PasswordInput
          id="invitation-password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          aria-describedby="invitation-password-error"
          {...form.register('password')}
        />
        <FieldError id="invitation-password-error" message={errors.password?.message} />
      </div>
      <Button type="submit" size="lg" disabled={busy}>
        {busy && <Loader2 className="animate-spin" aria-hidden />} Sign In and Accept
      </Button>
    </form>
  );
}

function SignUpToAccept({ token, email }: { token: string; email: string }) {
  const [signUp, { isLoading }] = useAcceptInvitationSignupMutation();
  const joined = useJoined();
  const form = useForm<JoinForm>({
    resolver: zodResolver(joinSchema),
    defaultValues: { full_name: '', password: '', confirm_password: '', accepted_terms: false },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await joined(await signUp({ token, ...values, accepted_terms: true }).unwrap());
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Create your account">
        <div className="flex flex-col gap-2">
          <Label htmlFor="invitation-email">Email</Label>
          <Input id="invitation-email" type="email" value={email} readOnly aria-readonly />
        </div>
        <FullNameField id="invitation-name" />
        <NewPasswordFields ids={{ password: 'invitation-new-password', confirm: 'invitation-confirm' }} />
        <TermsField id="invitation-terms" />
        <Button type="submit" size="lg" disabled={isLoading}>
          {isLoading && <Loader2 className="animate-spin" aria-hidden />} Create Account and Join
        </Button>
      </form>
    </FormProvider>
  );
}
