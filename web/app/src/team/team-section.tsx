import { QueryView } from '@vigil/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, MEMBER_ROLES, type MemberRole, type TeamInvitation, type TeamMember } from '@vigil/proto';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  toast,
  errorMessage,
} from '@vigil/ui';
import { Loader2, MailPlus, UserMinus, X } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useAuth } from '@vigil/ui/session';
import { EmptyState, formatDateTime } from '../screening/parts.js';
import {
  ROLE_LABELS,
  useChangeMemberRoleMutation,
  useGetTeamInvitationsQuery,
  useGetTeamMembersQuery,
  useInviteMemberMutation,
  useRemoveMemberMutation,
  useRevokeInvitationMutation,
} from './team.api.js';

const inviteSchema = z.object({ email: emailSchema, member_role: z.enum(MEMBER_ROLES) });
type InviteForm = z.input<typeof inviteSchema>;

/** A native select styled like Input: keyboard and screen readers work as they always do. */
function RoleSelect(props: ComponentProps<'select'>) {
  return (
    <select
      {...props}
      className="h-10 rounded-lg border border-input bg-surface px-3 text-sm text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/30 disabled:opacity-60"
    >
      {MEMBER_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role].label}
        </option>
      ))}
    </select>
  );
}

/** Settings › Team: everyone sees the members; owners invite, change roles and remove. */
export function TeamSection() {
  const { user } = useAuth();
  const isOwner = user?.member_role === 'owner';
  const members = useGetTeamMembersQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team</CardTitle>
        <CardDescription>
          {isOwner
            ? 'Invite colleagues and choose what each may do. Members share your data and quota.'
            : 'The people who share this account. Only owners can invite or change members.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <QueryView query={members} errorTitle="Failed to load team members" loadingLabel="Loading team...">
          {(data) => <MembersTable members={data.members} isOwner={isOwner} selfId={user?.id ?? null} />}
        </QueryView>
        {isOwner && (
          <>
            <InviteForm />
            <PendingInvitations />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function MembersTable({
  members,
  isOwner,
  selfId,
}: {
  members: TeamMember[];
  isOwner: boolean;
  selfId: string | null;
}) {
  const [changeRole, changing] = useChangeMemberRoleMutation();
  const [removing, setRemoving] = useState<TeamMember | null>(null);

  const onRole = async (member: TeamMember, role: MemberRole) => {
    try {
      await changeRole({ userId: member.user_id, member_role: role }).unwrap();
      toast({ title: 'Role Changed', description: `${member.email} is now ${ROLE_LABELS[role].label.toLowerCase()}.` });
    } catch (error) {
      toast({ title: 'Error', description: `Failed to change role: ${errorMessage(error)}`, variant: 'destructive' });
    }
  };

  return (
    <>
      <table className="w-full text-left text-sm" aria-label="Team members">
        <thead className="text-muted-foreground">
          <tr>
            <th className="py-2 font-medium">Member</th>
            <th className="py-2 font-medium">Role</th>
            <th className="hidden py-2 font-medium sm:table-cell">Member since</th>
            {isOwner && (
              <th className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.user_id} className="border-t border-border" data-member={member.email}>
              <td className="py-2 pr-3">
                <div className="font-medium break-all">{member.full_name ?? member.email}</div>
                {member.full_name && <div className="text-xs break-all text-muted-foreground">{member.email}</div>}
              </td>
              <td className="py-2 pr-3">
                {isOwner ? (
                  <RoleSelect
                    aria-label={`Role of ${member.email}`}
                    value={member.member_role}
                    disabled={changing.isLoading}
                    onChange={(e) => void onRole(member, e.target.value as MemberRole)}
                  />
                ) : (
                  <Badge tone={member.member_role === 'owner' ? 'brand' : 'neutral'}>
                    {ROLE_LABELS[member.member_role].label}
                  </Badge>
                )}
              </td>
              <td className="hidden py-2 pr-3 sm:table-cell">{formatDateTime(member.member_since)}</td>
              {isOwner && (
                <td className="py-2 text-right">
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`${member.user_id === selfId ? 'Leave' : 'Remove'} ${member.email}`}
                    onClick={() => setRemoving(member)}
                  >
                    <UserMinus aria-hidden /> {member.user_id === selfId ? 'Leave' : 'Remove'}
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <RemoveDialog member={removing} onClose={() => setRemoving(null)} />
    </>
  );
}

function RemoveDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const [remove, state] = useRemoveMemberMutation();
  const confirm = async () => {
    if (!member) return;
    try {
      await remove(member.user_id).unwrap();
      toast({ title: 'Member Removed', description: `${member.email} no longer has access and was signed out.` });
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: `Failed to remove member: ${errorMessage(error)}`, variant: 'destructive' });
      onClose();
    }
  };
  return (
    <Dialog open={member !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogTitle>Remove {member?.email}?</DialogTitle>
        <DialogDescription>
          They lose access to your organisation at once and are signed out of every device. Their past decisions keep
          their name.
        </DialogDescription>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void confirm()} disabled={state.isLoading}>
            {state.isLoading && <Loader2 className="animate-spin" aria-hidden />} Remove member
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function InviteForm() {
  const [invite, state] = useInviteMemberMutation();
  const form = useForm<InviteForm>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', member_role: 'analyst' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const sent = await invite({ email: values.email, member_role: values.member_role }).unwrap();
      toast({ title: 'Invitation Sent', description: `We emailed ${sent.email} a link to join.` });
      form.reset({ email: '', member_role: values.member_role });
    } catch (error) {
      toast({
        title: 'Error',
        description: `Failed to send invitation: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Invite a colleague" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Invite a colleague</h3>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex flex-1 flex-col gap-1">
          <Label htmlFor="invite-email" className="sr-only">
            Colleague's email
          </Label>
          <Input
            id="invite-email"
            type="email"
            placeholder="colleague@example.com"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby="invite-email-error"
            {...form.register('email')}
          />
          <p id="invite-email-error" className="min-h-4 text-xs text-destructive-foreground">
            {errors.email?.message}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="invite-role" className="sr-only">
            Role
          </Label>
          <RoleSelect id="invite-role" {...form.register('member_role')} />
        </div>
        <Button type="submit" disabled={state.isLoading}>
          {state.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <MailPlus aria-hidden />} Send
          invitation
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        {MEMBER_ROLES.map((role) => `${ROLE_LABELS[role].label}: ${ROLE_LABELS[role].summary}`).join(' ')}
      </p>
    </form>
  );
}

function PendingInvitations() {
  const invitations = useGetTeamInvitationsQuery();
  const [revoke, state] = useRevokeInvitationMutation();
  const onRevoke = async (invitation: TeamInvitation) => {
    try {
      await revoke(invitation.id).unwrap();
      toast({ title: 'Invitation Revoked', description: `The link sent to ${invitation.email} no longer works.` });
    } catch (error) {
      toast({
        title: 'Error',
        description: `Failed to revoke invitation: ${errorMessage(error)}`,
        variant: 'destructive',
      });
    }
  };
  return (
    <section aria-labelledby="pending-invitations" className="flex flex-col gap-2">
      <h3 id="pending-invitations" className="text-sm font-semibold">
        Pending invitations
      </h3>
      <QueryView
        query={invitations}
        errorTitle="Failed to load invitations"
        isEmpty={(data) => data.invitations.length === 0}
        empty={
          <EmptyState title="No pending invitations">
            Invitations you send appear here until they are accepted.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="flex flex-col divide-y divide-border text-sm" aria-label="Pending invitations">
            {data.invitations.map((invitation) => (
              <li
                key={invitation.id}
                className="flex items-center justify-between gap-3 py-2"
                data-invitation={invitation.email}
              >
                <div className="min-w-0">
                  <div className="font-medium break-all">{invitation.email}</div>
                  <div className="text-xs text-muted-foreground">
                    {ROLE_LABELS[invitation.member_role].label} · expires {formatDateTime(invitation.expires_at)}
                  </div>
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Revoke the invitation of ${invitation.email}`}
                  disabled={state.isLoading}
                  onClick={() => void onRevoke(invitation)}
                >
                  <X aria-hidden /> Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
