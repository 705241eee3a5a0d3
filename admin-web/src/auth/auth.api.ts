import { gatewayApi } from '../api/gateway-api.js';
import type { SignInRequest } from './sign-in.schema.js';

/**
 * The gateway route the auth service will answer. Until it exists the gateway
 * replies 404 ROUTE_NOT_FOUND, which the form shows as "not available yet".
 */
export const SIGN_IN_PATH = '/api/v1/auth/sign-in';

export const authApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    signIn: build.mutation<unknown, SignInRequest>({
      query: (body) => ({ url: SIGN_IN_PATH, method: 'POST', body, timeout: 15_000 }),
    }),
  }),
});

export const { useSignInMutation } = authApi;
