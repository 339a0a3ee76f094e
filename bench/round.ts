/** `x` to `digits` decimal places, for the figures the bench prints (a ratio to 3 places is enough to compare runs). */
export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
