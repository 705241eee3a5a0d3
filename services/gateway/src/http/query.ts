/**
 * Query strings arrive as strings; the proto schemas want numbers and booleans. Converts
 * the values that look like what the named parameters take and leaves everything else as
 * it came (so validation reports it with its pointer); empty values count as absent,
 * because forms send `?status=` for "all".
 */
export function typedQuery(
  query: Record<string, unknown>,
  types: Readonly<Record<string, 'number' | 'boolean' | 'string'>>,
): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(types)) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    if (type === 'number' && typeof value === 'string' && /^-?\d+$/.test(value)) typed[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) typed[name] = value === 'true';
    else typed[name] = value;
  }
  return typed;
}
