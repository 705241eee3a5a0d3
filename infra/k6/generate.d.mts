/** Every k6 scenario script, path relative to the repository → content. */
export function k6Scripts(): Promise<Record<string, string>>;
