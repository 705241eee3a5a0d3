import type { PublicListsResponse } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/** The live list catalogue (anonymous, cached by the gateway): entity counts and last-updated dates for the Watchlists page. */
export const listCatalogueApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getListCatalogue: build.query<PublicListsResponse, void>({ query: () => '/api/lists' }),
  }),
});

export const { useGetListCatalogueQuery } = listCatalogueApi;
