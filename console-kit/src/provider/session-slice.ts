import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '../api/api-types';

export interface SessionState {
  user: SessionUser | null;
}

const initialState: SessionState = { user: null };

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionStarted(state, action: PayloadAction<SessionUser>) {
      state.user = action.payload;
    },
    sessionCleared(state) {
      state.user = null;
    },
  },
  selectors: {
    selectSessionUser: (state) => state.user,
  },
});

export const { sessionStarted, sessionCleared } = sessionSlice.actions;
export const { selectSessionUser } = sessionSlice.selectors;
