import { Checkbox, Input, Label } from '@vigil/ui';
import { Controller, useFormContext } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { FieldError } from './auth-card.js';
import { PasswordInput } from './password-input.js';

/**
 * The fields every new account fills in, on the sign-up tab and on an invitation: the forms differ
 * in what surrounds them (email, invitation code) but these must read and validate the same.
 * They take the form from a FormProvider, so each form keeps its own schema and submit.
 */
type NewAccountFields = { full_name: string; password: string; confirm_password: string; accepted_terms: boolean };

export function FullNameField({ id }: { id: string }) {
  const { register, formState } = useFormContext<NewAccountFields>();
  const error = formState.errors.full_name;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>Full name</Label>
      <Input
        id={id}
        autoComplete="name"
        aria-invalid={!!error}
        aria-describedby={`${id}-error`}
        {...register('full_name')}
      />
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}

export function NewPasswordFields({ ids }: { ids: { password: string; confirm: string } }) {
  const { register, formState } = useFormContext<NewAccountFields>();
  const { errors } = formState;
  return (
    <>
      <div className="flex flex-col gap-2">
        <Label htmlFor={ids.password}>Password</Label>
        <PasswordInput
          id={ids.password}
          autoComplete="new-password"
          aria-invalid={!!errors.password}
          aria-describedby={`${ids.password}-error`}
          {...register('password')}
        />
        <FieldError id={`${ids.password}-error`} message={errors.password?.message} />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={ids.confirm}>Confirm password</Label>
        <PasswordInput
          id={ids.confirm}
          autoComplete="new-password"
          aria-invalid={!!errors.confirm_password}
          aria-describedby={`${ids.confirm}-error`}
          {...register('confirm_password')}
        />
        <FieldError id={`${ids.confirm}-error`} message={errors.confirm_password?.message} />
      </div>
    </>
  );
}

export function TermsField({ id }: { id: string }) {
  const { control, formState } = useFormContext<NewAccountFields>();
  const error = formState.errors.accepted_terms;
  return (
    <>
      <div className="flex items-start gap-2">
        <Controller
          control={control}
          name="accepted_terms"
          render={({ field }) => (
            <Checkbox
              id={id}
              className="mt-0.5"
              checked={field.value}
              aria-invalid={!!error}
              aria-describedby={`${id}-error`}
              onCheckedChange={(v) => field.onChange(v === true)}
            />
          )}
        />
        <Label htmlFor={id} className="leading-snug font-normal">
          I agree to the{' '}
          <Link to="/terms-of-service" className="font-medium text-primary hover:underline">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy-policy" className="font-medium text-primary hover:underline">
            Privacy Policy
          </Link>
        </Label>
      </div>
      <FieldError id={`${id}-error`} message={error?.message} />
    </>
  );
}
