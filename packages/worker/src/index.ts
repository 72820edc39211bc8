// @strata/worker public surface.
export {};
