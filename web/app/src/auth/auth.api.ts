import type {
  AccountSummary,
  ChallengeReply,
  EnrollFactorReply,
  ListSessionsReply,
  MessageReply,
  OidcStartReply,
  Session,
  SignupReply,
  User,
  VerifyFactorReply,
} from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/** `mfa_code`: a locked account's owner signs in with the password and a current authenticator code. */
export type SignInArgs = { email: string; password: string; remember_me: boolean; mfa_code?: string };
export type SignUpArgs = {
  full_name: string;
  email: string;
  password: string;
  confirm_password: string;
  accepted_terms: true;
  invitation_code?: string;
};

const bearer = (accessToken: string | undefined) =>
  accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {};

/** The auth service's routes at the gateway (/auth/v1/*) and the caller's own account summary. */
export const authApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    signIn: build.mutation<Session, SignInArgs>({
      query: (body) => ({ url: '/auth/v1/token?grant_type=password', method: 'POST', body }),
    }),
    signUp: build.mutation<SignupReply, SignUpArgs>({
      query: (body) => ({ url: '/auth/v1/signup', method: 'POST', body: { ...body, redirect_to: '/login' } }),
    }),
    recover: build.mutation<MessageReply, { email: string }>({
      query: (body) => ({ url: '/auth/v1/recover', method: 'POST', body }),
    }),
    /** A new confirmation link; the same answer whether or not the address has an account. */
    resendConfirmation: build.mutation<MessageReply, { email: string }>({
      query: ({ email }) => ({ url: '/auth/v1/resend', method: 'POST', body: { type: 'signup', email } }),
    }),
    /** The emailed unlock link of a locked account (single use). */
    unlockAccount: build.mutation<MessageReply, { token: string }>({
      query: ({ token }) => ({ url: '/auth/v1/verify', method: 'POST', body: { type: 'unlock', token } }),
    }),
    verifySignup: build.mutation<Session, { token: string }>({
      query: ({ token }) => ({ url: '/auth/v1/verify', method: 'POST', body: { type: 'signup', token } }),
    }),
    resetPassword: build.mutation<MessageReply, { token: string; password: string }>({
      query: ({ token, password }) => ({
        url: '/auth/v1/verify',
        method: 'POST',
        body: { type: 'recovery', token, password },
      }),
    }),
    startGoogle: build.mutation<OidcStartReply, { remember_me: boolean }>({
      query: ({ remember_me }) => ({
        url: `/auth/v1/authorize?provider=google&redirect=false&remember_me=${remember_me}`,
        method: 'GET',
      }),
    }),
    completeOidc: build.mutation<Session, { code: string; state: string; iss?: string; scope?: string }>({
      query: (body) => ({ url: '/auth/v1/callback', method: 'POST', body }),
    }),
    logout: build.mutation<MessageReply, { scope: 'global' | 'local'; accessToken?: string }>({
      query: ({ scope, accessToken }) => ({
        url: `/auth/v1/logout?scope=${scope}`,
        method: 'POST',
        ...bearer(accessToken),
      }),
    }),
    getUser: build.query<User, void>({ query: () => '/auth/v1/user', providesTags: ['User'] }),
    listSessions: build.query<ListSessionsReply, void>({
      query: () => '/auth/v1/sessions',
      providesTags: ['Sessions'],
    }),
    revokeSession: build.mutation<MessageReply, string>({
      query: (id) => ({ url: `/auth/v1/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    enrollTotp: build.mutation<EnrollFactorReply, { friendly_name?: string }>({
      query: (body) => ({ url: '/auth/v1/factors', method: 'POST', body: { factor_type: 'totp', ...body } }),
    }),
    // `accessToken`: at sign-in the session is not kept until its second factor is verified,
    // so these two calls carry its token themselves.
    challengeFactor: build.mutation<ChallengeReply, { factorId: string; accessToken?: string }>({
      query: ({ factorId, accessToken }) => ({
        url: `/auth/v1/factors/${encodeURIComponent(factorId)}/challenge`,
        method: 'POST',
        ...bearer(accessToken),
      }),
    }),
    verifyFactor: build.mutation<
      VerifyFactorReply,
      { factorId: string; challengeId: string; code: string; accessToken?: string }
    >({
      query: ({ factorId, challengeId, code, accessToken }) => ({
        url: `/auth/v1/factors/${encodeURIComponent(factorId)}/verify`,
        method: 'POST',
        body: { challenge_id: challengeId, code },
        ...bearer(accessToken),
      }),
      invalidatesTags: ['User', 'Sessions'],
    }),
    /** The caller's client, key status and usage; 404 NOT_FOUND when no plan has been bought yet. */
    getAccountSummary: build.query<AccountSummary, void>({
      query: () => '/api/settings/account-summary',
      providesTags: ['Account'],
    }),
  }),
});

export const {
  useSignInMutation,
  useSignUpMutation,
  useRecoverMutation,
  useResendConfirmationMutation,
  useUnlockAccountMutation,
  useVerifySignupMutation,
  useResetPasswordMutation,
  useStartGoogleMutation,
  useCompleteOidcMutation,
  useLogoutMutation,
  useGetUserQuery,
  useListSessionsQuery,
  useRevokeSessionMutation,
  useEnrollTotpMutation,
  useChallengeFactorMutation,
  useVerifyFactorMutation,
  useGetAccountSummaryQuery,
} = authApi;
