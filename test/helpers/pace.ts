// Time let pass on purpose. A test waits for what happens by awaiting its event (the store's
// loads and publications: ./store-events.ts; a service's log lines: untilLogged in ./service.ts,
// waitForOutput in ./process.ts) or, where the thing has no event, by eventually() in ./http.ts.
// What remains is time itself being the point: the pause of a simulated client between two
// polls, or a kill at an instant chosen by a seed. Nothing else may call this.
export function letTimePass(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
