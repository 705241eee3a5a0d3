/** The parsed, frozen configuration, for providers that need more than their constructor arguments. */
export const MONITORING_CONFIG = Symbol('MONITORING_CONFIG');
