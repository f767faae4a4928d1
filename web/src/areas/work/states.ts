// The expiry states the work area's stacked charts are made of (src/charts
// draws them; charts.css colours each seg-<state>).
export const STATES = ["draft", "published", "expiringSoon", "warning", "expired"] as const;
export type StateKey = (typeof STATES)[number];
