import { z } from 'zod';
import { accessTokenSchema, callerContextSchema, emailSchema, MEMBER_ROLES } from '../auth/common.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/requests.js';
import { resolvedKeySchema } from './clients.js';

// A client's team: its members (users whose client it is) and the invitations its owners sent.
// The gateway fills `clientId` and `actorId` from the verified session; auth checks the actor's
// membership again from its own tables, so a role changed a moment ago already counts.

export const memberRoleSchema = z.enum(MEMBER_ROLES, {
  message: `Choose a role: ${MEMBER_ROLES.join(', ')}.`,
});

export const teamMemberSchema = z.object({
  user_id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  member_role: memberRoleSchema,
  /** When the user joined this client's team. */
  member_since: z.string(),
});

export const teamInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  member_role: memberRoleSchema,
  invited_by_email: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});

const teamRequestSchema = z.object({ clientId: z.uuid(), actorId: z.uuid() });

export const listTeamRequestSchema = teamRequestSchema;
export const listMembersReplySchema = z.object({ members: z.array(teamMemberSchema) });
export const listInvitationsReplySchema = z.object({ invitations: z.array(teamInvitationSchema) });

export const inviteMemberRequestSchema = teamRequestSchema.extend({
  email: emailSchema,
  member_role: memberRoleSchema,
});

export const changeMemberRoleRequestSchema = teamRequestSchema.extend({
  userId: z.uuid({ message: 'No such member.' }),
  member_role: memberRoleSchema,
});

export const removeMemberRequestSchema = teamRequestSchema.extend({
  userId: z.uuid({ message: 'No such member.' }),
});

export const revokeInvitationRequestSchema = teamRequestSchema.extend({
  invitationId: z.uuid({ message: 'No such invitation.' }),
});

/** The secret of an invitation link (…/invitation?token=…). */
const invitationTokenSchema = z.string().trim().min(1, { message: 'The invitation link is incomplete.' }).max(200);

export const lookUpInvitationRequestSchema = z.object({ token: invitationTokenSchema });

/** What the invitation page shows before the invitee signs up or signs in. */
export const invitationPreviewSchema = z.object({
  email: z.string(),
  client_name: z.string(),
  member_role: memberRoleSchema,
  invited_by_email: z.string().nullable(),
  expires_at: z.string(),
  /** The invited address already has an account: sign in to accept rather than sign up. */
  has_account: z.boolean(),
});

/** A new account through an invitation: the link proves the address, so no confirmation mail. */
export const acceptInvitationSignupRequestSchema = callerContextSchema
  .extend({
    token: invitationTokenSchema,
    full_name: z.string().trim().min(1, { message: 'Full name is required.' }).max(200),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` })
      .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.` }),
    confirm_password: z.string().max(PASSWORD_MAX_LENGTH),
    accepted_terms: z.literal(true, { message: 'You must accept the terms of service and privacy policy.' }),
  })
  .refine((value) => value.password === value.confirm_password, {
    message: 'Passwords do not match.',
    path: ['confirm_password'],
  });

/** A signed-in account without a client accepts an invitation to its own address. */
export const acceptInvitationRequestSchema = callerContextSchema.extend({
  token: invitationTokenSchema,
  accessToken: accessTokenSchema,
});

/** The gateway's dashboard routes: is this user still a member of the client, and with what role. */
export const resolveMemberRequestSchema = z.object({ clientId: z.uuid(), userId: z.uuid() });
/** What resolve-client answers, with the member's live role. */
export const resolvedMemberSchema = resolvedKeySchema.extend({ memberRole: memberRoleSchema });

/**
 * Event `auth.v1.member-changed`: a user's role in a client changed, or they left it
 * (`member_role` and `client_id` null). Verifiers that trust the role in an access token
 * (the gateway) apply it to tokens issued before `changed_at`.
 */
export const memberChangedEventSchema = z.object({
  user_id: z.uuid(),
  client_id: z.uuid().nullable(),
  member_role: memberRoleSchema.nullable(),
  changed_at: z.string(),
});

export type TeamMember = z.infer<typeof teamMemberSchema>;
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;
export type InviteMemberRequest = z.infer<typeof inviteMemberRequestSchema>;
export type ChangeMemberRoleRequest = z.infer<typeof changeMemberRoleRequestSchema>;
export type AcceptInvitationSignupRequest = z.infer<typeof acceptInvitationSignupRequestSchema>;
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;
export type MemberChangedEvent = z.infer<typeof memberChangedEventSchema>;
export type ResolvedMember = z.infer<typeof resolvedMemberSchema>;
