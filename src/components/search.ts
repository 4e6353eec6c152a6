/** Typing in a list's search box asks the server once the typing pauses, not on every key. */
export const SEARCH_DELAY_MS = 300;
