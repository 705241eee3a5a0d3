import { Button, Card } from '@vigil/ui';
import { ExternalLink, LayoutDashboard } from 'lucide-react';
import { usePageTitle } from '../shell/page-title.js';

/** The admin console is its own app (admin-web); admins who land here are pointed to it. */
const ADMIN_CONSOLE_URL =
  import.meta.env.VITE_ADMIN_URL ?? `${window.location.protocol}//${window.location.hostname}:${Number(window.location.port || 80) + 1}`;

export function AdminHandoffPage() {
  usePageTitle('Admin Dashboard');
  return (
    <section className="mx-auto max-w-xl px-6 pt-32 pb-24">
      <Card className="p-8 text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-primary-soft text-primary">
          <LayoutDashboard className="size-7" aria-hidden />
        </span>
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
        <p className="mt-3 text-muted-foreground">
          Client administration, thresholds and security logs live in the Vigil admin console. Admin accounts do not need a plan.
        </p>
        <Button asChild size="lg" className="mt-8">
          <a href={ADMIN_CONSOLE_URL}>
            Open the admin console <ExternalLink aria-hidden />
          </a>
        </Button>
      </Card>
    </section>
  );
}
