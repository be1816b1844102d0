/**
 * A major amount in units of 10^-digits, rounded half up through a fixed decimal first, since the binary product can
 * fall just short of the half (0.285 × 100 is 28.499999999999996): 0.285, 2 → 29; 1.005, 2 → 101; 1000, 0 → 1000.
 * Shared by the shop's totals and the amounts sent to payment providers; no Node API, so the browser uses it too.
 */
export const roundHalfUp = (amount: number, digits: number) => Math.round(Number((amount * 10 ** digits).toFixed(6)));
