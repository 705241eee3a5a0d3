import { Card, VigilLogo } from '@vigil/ui';
import type { ReactNode } from 'react';

/** The centred card every authentication screen sits in. */
export function AuthCard({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  return (
    <section className="relative flex min-h-[calc(100dvh-4rem)] items-start justify-center overflow-hidden px-4 pt-28 pb-16 sm:pt-32">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_20rem_at_50%_0%,var(--color-primary-soft),transparent_70%)]"
      />
      <Card className="relative w-full max-w-md p-6 sm:p-8">
        <VigilLogo />
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">{title}</h1>
        {lead && <p className="mt-2 text-sm text-muted-foreground">{lead}</p>}
        <div className="mt-6">{children}</div>
      </Card>
    </section>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-destructive-foreground">
      {message}
    </p>
  );
}
