export function clusterConfig(): Promise<string>;
export function authorizationConfig(): Promise<string>;
export function secretsYaml(): Promise<string>;
