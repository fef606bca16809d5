import { configureStore, createSlice } from '@reduxjs/toolkit';

/** The portal's own Redux store: the console's store lives in its own react-redux context beside it. */
const counterSlice = createSlice({
  name: 'counter',
  initialState: { count: 0 },
  reducers: {
    incremented(state) {
      state.count += 1;
    },
  },
});

export const { incremented } = counterSlice.actions;

export const portalStore = configureStore({ reducer: { counter: counterSlice.reducer } });

export type PortalState = ReturnType<typeof portalStore.getState>;
