import type { ChallengeReply, EnrollFactorReply, VerifyFactorReply } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

// The session from the password step is not kept until its second factor is verified (every admin
// route needs aal2), so these calls carry its access token themselves.
const bearer = (accessToken: string) => ({ headers: { authorization: `Bearer ${accessToken}` } });

/** The auth service's authenticator-app routes at the gateway, as the console's code step uses them. */
export const secondFactorApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    enrollTotp: build.mutation<EnrollFactorReply, { accessToken: string }>({
      query: ({ accessToken }) => ({
        url: '/auth/v1/factors',
        method: 'POST',
        body: { factor_type: 'totp', friendly_name: 'Admin console' },
        ...bearer(accessToken),
      }),
    }),
    challengeFactor: build.mutation<ChallengeReply, { factorId: string; accessToken: string }>({
      query: ({ factorId, accessToken }) => ({
        url: `/auth/v1/factors/${encodeURIComponent(factorId)}/challenge`,
        method: 'POST',
        ...bearer(accessToken),
      }),
    }),
    verifyFactor: build.mutation<
      VerifyFactorReply,
      { factorId: string; challengeId: string; code: string; accessToken: string }
    >({
      query: ({ factorId, challengeId, code, accessToken }) => ({
        url: `/auth/v1/factors/${encodeURIComponent(factorId)}/verify`,
        method: 'POST',
        body: { challenge_id: challengeId, code },
        ...bearer(accessToken),
      }),
    }),
    /** Back to sign-in: the half-finished session ends at the server too. */
    abandonSession: build.mutation<unknown, { accessToken: string }>({
      query: ({ accessToken }) => ({ url: '/auth/v1/logout?scope=local', method: 'POST', ...bearer(accessToken) }),
    }),
  }),
});

export const { useAbandonSessionMutation, useEnrollTotpMutation, useChallengeFactorMutation, useVerifyFactorMutation } =
  secondFactorApi;
