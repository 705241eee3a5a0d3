import { Button } from '@vigil/ui';
import { LogOut, Settings } from 'lucide-react';
import { useAuth } from '@vigil/ui/session';
import { useSignOut } from '../auth/use-sign-out.js';
import { formatDateTime, Panel, Section } from '../shell/parts.js';

/** Spec §2 Account Actions: the admin's email, role, id and created date, System Settings and Sign Out. */
export function AccountActions() {
  const { user } = useAuth();
  const signOut = useSignOut();
  if (!user) return null;
  return (
    <Section id="account" title="Account Actions">
      <Panel className="flex flex-col gap-4 p-4 sm:flex-row sm:items-end sm:justify-between">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-muted-foreground">Email</dt>
          <dd className="font-medium break-all">{user.email}</dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd>Administrator</dd>
          <dt className="text-muted-foreground">User ID</dt>
          <dd className="font-mono text-xs break-all">{user.id}</dd>
          <dt className="text-muted-foreground">Created</dt>
          <dd>{formatDateTime(user.created_at)}</dd>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" asChild>
            {/* The console's system settings are its threshold configuration. */}
            <a href="#thresholds">
              <Settings aria-hidden /> System Settings
            </a>
          </Button>
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden /> Sign Out
          </Button>
        </div>
      </Panel>
    </Section>
  );
}
