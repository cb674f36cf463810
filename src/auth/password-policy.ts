// Password rules (spec section 5, enforced on the server too): at least 8 characters, an upper-case and a
// lower-case letter and a digit; long passphrases are welcome (up to 1024 characters); the most common
// passwords are refused even when they fit the pattern.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

export type PasswordRule = 'length' | 'upper' | 'lower' | 'digit' | 'common' | 'tooLong';

// Common passwords that satisfy the pattern above (from public breach lists, German and English).
const COMMON = new Set(
  [
    'Password1', 'Password12', 'Password123', 'Passwort1', 'Passwort12', 'Passwort123', 'Qwerty123', 'Qwertz123',
    'Welcome1', 'Welcome123', 'Willkommen1', 'Willkommen123', 'Sommer2024', 'Sommer2025', 'Sommer2026', 'Winter2024',
    'Winter2025', 'Winter2026', 'Fruehling2025', 'Herbst2025', 'Admin123', 'Admin1234', 'Administrator1', 'Abcd1234',
    'Aa123456', 'Aa12345678', 'Test1234', 'Test12345', 'Hallo123', 'Hallo1234', 'Schalke04', 'Dortmund09', 'Bayern1900',
    'Iloveyou1', 'Letmein1', 'Monkey123', 'Dragon123', 'Master123', 'Football1', 'Baseball1', 'Sunshine1', 'Princess1',
    'Changeme1', 'Geheim123', 'Secret123', 'Zxcvbnm1', 'Asdfgh123', 'P@ssw0rd', 'P@ssword1', 'Passw0rd', 'Passw0rd1',
  ].map((p) => p.toLowerCase()),
);

export function passwordProblems(password: string): PasswordRule[] {
  const problems: PasswordRule[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('length');
  if (password.length > PASSWORD_MAX_LENGTH) problems.push('tooLong');
  if (!/\p{Lu}/u.test(password)) problems.push('upper');
  if (!/\p{Ll}/u.test(password)) problems.push('lower');
  if (!/\d/.test(password)) problems.push('digit');
  if (COMMON.has(password.toLowerCase())) problems.push('common');
  return problems;
}
