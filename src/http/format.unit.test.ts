import { describe, expect, it } from 'vitest';
import { formatter } from './format.js';

const moment = Date.parse('2023-12-31T22:30:00Z'); // 23:30 in Berlin, 17:30 in New York

describe('formatter', () => {
  it.each([
    ['dd.MM.yyyy', 'Europe/Berlin', '31.12.2023', '31.12.2023 23:30'],
    ['yyyy-MM-dd', 'Europe/London', '2023-12-31', '2023-12-31 22:30'],
    ['MM/dd/yyyy', 'America/New_York', '12/31/2023', '12/31/2023 17:30'],
  ])('formats %s in %s', (dateFormat, timezone, day, dayTime) => {
    const f = formatter({ dateFormat, timezone }, 'de');
    expect(f.date(moment)).toBe(day);
    expect(f.dateTime(moment)).toBe(dayTime);
  });

  it('crosses the date line with the timezone', () => {
    expect(formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'de').date('2024-01-01T23:30:00Z')).toBe('02.01.2024');
  });

  it('shows a calendar day as that day in every time zone', () => {
    expect(formatter({ dateFormat: 'MM/dd/yyyy', timezone: 'America/New_York' }, 'en').date('2025-12-31')).toBe('12/31/2025');
    expect(formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'de').date('2025-01-01')).toBe('01.01.2025');
  });

  it('formats numbers in the language of the page and keeps empty values empty', () => {
    expect(formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'de').number('1234567.891', 2)).toBe('1.234.567,89');
    expect(formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'en').number(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'de').number(null)).toBe('');
    expect(formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'de').date('kein Datum')).toBe('');
  });
});
