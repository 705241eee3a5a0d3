import type { InvitationPreview, MemberRole, MessageReply, Session, TeamInvitation, TeamMember } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

export type InviteArgs = { email: string; member_role: MemberRole };
export type InvitationSignupArgs = {
  token: string;
  full_name: string;
  password: string;
  confirm_password: string;
  accepted_terms: true;
};

/** The client's team (/api/team/*) and the invitee's side of an invitation (/auth/v1/team-invitations/*). */
export const teamApi = gatewayApi.enhanceEndpoints({ addTagTypes: ['Team', 'TeamInvitations'] }).injectEndpoints({
  endpoints: (build) => ({
    getTeamMembers: build.query<{ members: TeamMember[] }, void>({
      query: () => '/api/team/members',
      providesTags: ['Team'],
    }),
    getTeamInvitations: build.query<{ invitations: TeamInvitation[] }, void>({
      query: () => '/api/team/invitations',
      providesTags: ['TeamInvitations'],
    }),
    inviteMember: build.mutation<TeamInvitation, InviteArgs>({
      query: (body) => ({ url: '/api/team/invitations', method: 'POST', body }),
      invalidatesTags: ['TeamInvitations'],
    }),
    revokeInvitation: build.mutation<MessageReply, string>({
      query: (id) => ({ url: `/api/team/invitations/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['TeamInvitations'],
    }),
    changeMemberRole: build.mutation<TeamMember, { userId: string; member_role: MemberRole }>({
      query: ({ userId, member_role }) => ({
        url: `/api/team/members/${encodeURIComponent(userId)}`,
        method: 'PATCH',
        body: { member_role },
      }),
      invalidatesTags: ['Team'],
    }),
    removeMember: build.mutation<MessageReply, string>({
      query: (userId) => ({ url: `/api/team/members/${encodeURIComponent(userId)}`, method: 'DELETE' }),
      invalidatesTags: ['Team'],
    }),
    lookUpInvitation: build.query<InvitationPreview, string>({
      query: (token) => ({ url: '/auth/v1/team-invitations/look-up', method: 'POST', body: { token } }),
    }),
    acceptInvitationSignup: build.mutation<Session, InvitationSignupArgs>({
      query: (body) => ({ url: '/auth/v1/team-invitations/signup', method: 'POST', body }),
    }),
    /** `accessToken`: the session just started on the invitation page, before it is kept. */
    acceptInvitation: build.mutation<Session, { token: string; accessToken?: string }>({
      query: ({ token, accessToken }) => ({
        url: '/auth/v1/team-invitations/accept',
        method: 'POST',
        body: { token },
        ...(accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {}),
      }),
    }),
  }),
});

export const {
  useGetTeamMembersQuery,
  useGetTeamInvitationsQuery,
  useInviteMemberMutation,
  useRevokeInvitationMutation,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useLookUpInvitationQuery,
  useAcceptInvitationSignupMutation,
  useAcceptInvitationMutation,
} = teamApi;

/** How a role reads in the interface, and what it may do. */
export const ROLE_LABELS: Readonly<Record<MemberRole, { label: string; summary: string }>> = {
  owner: { label: 'Owner', summary: 'Manages members, API keys and billing, and everything below.' },
  supervisor: { label: 'Supervisor', summary: 'Confirms decisions and changes settings.' },
  analyst: { label: 'Analyst', summary: 'Screens names and decides reviews.' },
  viewer: { label: 'Viewer', summary: 'Reads results, reviews and reports.' },
};
