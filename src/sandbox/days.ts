/** One day in milliseconds: the universe's dates are whole days apart plus hours of the day. */
export const DAY_MS = 86_400_000;
