export type Thresholds = { p95Ms?: number; p99Ms?: number; errorRate: number };
export type RouteSpec = {
  label: string;
  method: 'GET' | 'POST';
  path?: string;
  paths?: string[];
  credentials: 'api-key' | 'session';
  body?: { kind: string; names?: number };
  expect: number;
  thresholds: Thresholds;
  poll?: {
    path: string;
    everySeconds: number;
    expect: number;
    thresholds: Thresholds;
    completion: { p99Ms: number; timeoutSeconds: number };
  };
};
export type RoutePlan = { start: number; stages: { target: number; seconds: number }[] };
export type Scenario = {
  description: string;
  tier: string;
  rateLimits: 'lifted' | 'enforced';
  max429Rate: number | null;
  sequential?: boolean;
  warmupSeconds?: number;
  breakpoint?: { windowSeconds: number; abortP99Factor: number; abortErrorRate: number };
  routes: Record<string, RoutePlan>;
};
export const NAMES: string[];
export const ROUTES: Record<string, RouteSpec>;
export const SCENARIOS: Record<string, Scenario>;
export const SCENARIO_NAMES: string[];
export function routeSeconds(plan: RoutePlan): number;
export function startOffsets(scenario: Pick<Scenario, 'routes' | 'sequential'>): Record<string, number>;
export function rateAt(plan: RoutePlan, t: number): number;
export function peakRate(plan: RoutePlan): number;
