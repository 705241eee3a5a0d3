export const AUDIT_CONFIG = Symbol('AUDIT_CONFIG');
