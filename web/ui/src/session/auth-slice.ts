import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Session } from '@vigil/proto';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

/** The session lives here, in memory only; see auth-storage.ts for the one thing persisted. */
export type AuthState = { status: AuthStatus; session: Session | null; remember: boolean };

/** What the session code needs of an app's store: the auth slice under its own name. */
export type SessionState = { auth: AuthState };

const initialState: AuthState = { status: 'loading', session: null, remember: false };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    sessionStarted(state, action: PayloadAction<{ session: Session; remember: boolean }>) {
      state.status = 'authenticated';
      state.session = action.payload.session;
      state.remember = action.payload.remember;
    },
    sessionEnded(state) {
      state.status = 'anonymous';
      state.session = null;
      state.remember = false;
    },
  },
});

export const { sessionStarted, sessionEnded } = authSlice.actions;
