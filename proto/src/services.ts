export const SERVICE_NAMES = ['gateway', 'auth', 'screening', 'monitoring', 'billing', 'audit'] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];
