import { zodResolver } from '@hookform/resolvers/zod';
import { RECOVER_MESSAGE } from '@vigil/proto';
import { Button, Input, Label, toast, isApiError } from '@vigil/ui';
import { ArrowLeft, Loader2, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../shell/page-title.js';
import { AuthCard, FieldError } from './auth-card.js';
import { useRecoverMutation } from './auth.api.js';
import { forgotPasswordSchema, type ForgotPasswordForm } from './login-forms.js';

export function ForgotPasswordPage() {
  usePageTitle('Reset Password');
  const [recover, { isLoading }] = useRecoverMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotPasswordForm>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await recover({ email }).unwrap();
      setSentTo(email);
    } catch (error) {
      toast({
        title: 'Error',
        description: isApiError(error) && error.status !== 0 ? error.message : 'An error occurred. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <AuthCard title="Reset your password" lead="Enter the e-mail address of your account and we will send you a reset link.">
      {sentTo ? (
        <div role="status" className="flex flex-col items-center gap-4 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-success-soft text-success-foreground">
            <MailCheck className="size-6" aria-hidden />
          </span>
          <h2 className="text-lg font-semibold">Check your email</h2>
          <p className="text-sm text-muted-foreground">{RECOVER_MESSAGE}</p>
          <p className="rounded-md bg-muted px-2.5 py-1 font-mono text-sm" data-testid="sent-to">
            {sentTo}
          </p>
          <Button
            variant="outline"
            onClick={() => {
              setSentTo(null);
              form.reset();
            }}
          >
            Try Another Email
          </Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="forgot-email">Email</Label>
            <Input id="forgot-email" type="email" autoComplete="email" required aria-invalid={!!errors.email} aria-describedby="forgot-email-error" {...form.register('email')} />
            <FieldError id="forgot-email-error" message={errors.email?.message} />
          </div>
          <Button type="submit" size="lg" disabled={isLoading}>
            {isLoading && <Loader2 className="animate-spin" aria-hidden />} Send Reset Link
          </Button>
        </form>
      )}
      <Link to="/login" className="mt-6 inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden /> Back to Sign In
      </Link>
    </AuthCard>
  );
}
