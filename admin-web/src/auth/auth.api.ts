import { sessionSchema, type MessageReply, type PasswordGrant, type Session } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/** The gateway's REST face of the auth service's `auth.v1.token` subject (grant_type in the body). */
export const SIGN_IN_PATH = '/auth/v1/token';

export const authApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    signIn: build.mutation<Session, PasswordGrant>({
      query: (grant) => ({ url: SIGN_IN_PATH, method: 'POST', body: grant, timeout: 15_000 }),
      // A reply that is not a session is an error, not a signed-in admin without a user.
      transformResponse: (reply: unknown) => sessionSchema.parse(reply),
    }),
    logout: build.mutation<MessageReply, { scope: 'global' | 'local' }>({
      query: ({ scope }) => ({ url: `/auth/v1/logout?scope=${scope}`, method: 'POST' }),
    }),
  }),
});

export const { useSignInMutation, useLogoutMutation } = authApi;
