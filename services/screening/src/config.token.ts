/** Injection token for the service's parsed, frozen configuration. */
export const SCREENING_CONFIG = Symbol('SCREENING_CONFIG');
