// The most common leaked passwords of 8+ characters (shorter ones already fail the
// length rule), compared case-insensitively. NIST 800-63B asks for a blocklist
// instead of composition rules; this small one stops the worst choices offline.
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '123123123', '11111111', '111111111', '00000000', '88888888',
  '87654321', '987654321', '0987654321', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', 'qwertyuiop', 'qwerty123', 'qwerty12',
  'qwertyui', 'asdfghjkl', 'asdfasdf', 'zxcvbnm1', 'password', 'password1', 'password12', 'password123', 'password!',
  'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa55word', 'passwort', 'motdepasse', 'iloveyou', 'iloveyou1', 'sunshine',
  'princess', 'football', 'baseball', 'basketball', 'superman', 'starwars', 'whatever', 'trustno1', 'letmein1',
  'welcome1', 'welcome123', 'admin123', 'administrator', 'abc12345', 'abcd1234', 'abcdefgh', 'aa123456', 'a1234567',
  'qazwsxedc', 'zaq12wsx', 'changeme', 'computer', 'internet', 'michelle', 'jennifer', 'jordan23', 'liverpool',
  'chelsea1', 'arsenal1', 'charlie1', 'samantha', 'victoria', 'scorpion', 'mercedes', 'corvette', 'danielle',
  'elizabeth', 'benjamin', 'butterfly', 'chocolate', 'cookie123', 'monkey123', 'dragon123', 'master123', 'shadow123',
  'freedom1', 'lovelove', 'babygirl', 'fuckyou1', 'metallica', 'mustang1', 'michael1', 'qwer1234', 'q1w2e3r4',
  'q1w2e3r4t5', 'asdf1234', 'zxcv1234', '1234qwer', '1234abcd', 'test1234', 'testtest', 'user1234', 'login123',
  'secret123', 'summer2024', 'winter2024', 'summer2025', 'spring2025', 'autumn2025', 'vigil123', 'vigilvigil',
]);
