import { gatewayApi } from '../api/gateway-api.js';
import type { OpenApiDocument } from './openapi.js';

export const openApiApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** The gateway's own OpenAPI document: the Docs page renders from it, so it cannot drift from the API. */
    getOpenApi: build.query<OpenApiDocument, void>({ query: () => '/openapi.json' }),
  }),
});

export const { useGetOpenApiQuery } = openApiApi;
