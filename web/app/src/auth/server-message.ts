/** "Access Denied: Admin accounts require…" → a toast title and its description. */
export function splitServerMessage(message: string, fallbackTitle = 'Error'): { title: string; description: string } {
  const match = /^([A-Z][A-Za-z ]{2,40}): (.+)$/s.exec(message);
  return match ? { title: match[1]!, description: match[2]! } : { title: fallbackTitle, description: message };
}
