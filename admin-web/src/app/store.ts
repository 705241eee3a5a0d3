import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { gatewayApi } from '../api/gateway-api.js';
import { authSlice } from '@vigil/ui/session';

export function createStore() {
  const store = configureStore({
    reducer: { [gatewayApi.reducerPath]: gatewayApi.reducer, [authSlice.name]: authSlice.reducer },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(gatewayApi.middleware),
  });
  // Lets queries refetch when the tab regains focus or the browser comes back online.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
