export const SCHEMATHESIS_VERSION: string;
export const EXCLUDED_OPERATIONS: string[];
export function ensureSchemathesis(): string;
export function withoutPytestBanners(text: string): string;
export function runSchemathesis(options: {
  gatewayUrl: string;
  apiKey: string;
  accessToken: string;
  reportDir?: string;
  admin?: { token: string; operations: string[]; throwawayClients: { removed: string; rekeyed: string } };
}): {
  operations: number;
  cases: number;
  checks: number;
  failures: number;
  errors: number;
  seconds: number;
  status: number;
};
