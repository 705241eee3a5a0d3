import {
  bulkStatus,
  checkBulkNames,
  checkCsvFile,
  classifyScore,
  logStatus,
  matchLabel,
  bulkRowsFromText,
  namesFromCsv,
  namesFromText,
  percent,
} from './classify.js';

describe('spec §4 classification', () => {
  it('classifies scores at the default thresholds, inclusive', () => {
    expect([0.85, 0.849, 0.6, 0.599].map((s) => classifyScore(s))).toEqual(['blocked', 'review', 'review', 'clear']);
    expect(classifyScore(0.7, { highScore: 0.7, mediumScore: 0.5 })).toBe('blocked');
  });

  it('labels scores', () => {
    expect([0.95, 0.9, 0.6, 0.01, 0].map(matchLabel)).toEqual([
      'Exact Match',
      'High Confidence Match',
      'Partial Match',
      'Low Confidence Match',
      'No Match',
    ]);
  });

  it('reads a log as blocked when it is an alert, by score when it matched, else clear', () => {
    expect(logStatus({ is_alert: true, match_found: false, score: 0 })).toBe('blocked');
    expect(logStatus({ is_alert: false, match_found: true, score: 0.7 })).toBe('review');
    expect(logStatus({ is_alert: false, match_found: false, score: 0.9 })).toBe('clear');
    expect(bulkStatus({ blocked: false, match: true })).toBe('review');
  });

  it('caps percentages at 100', () => {
    expect(percent(1.2)).toBe('100%');
    expect(percent(0.1234, 1)).toBe('12.3%');
  });
});

describe('spec §5 bulk input', () => {
  it('takes one trimmed name per non-blank line', () => {
    expect(namesFromText(' a \r\n\n b\n   \n')).toEqual(['a', 'b']);
    expect(bulkRowsFromText('Jane Doe\tC-7\n\nJohn Roe\n')).toEqual([
      { name: 'Jane Doe', reference: 'C-7' },
      { name: 'John Roe', reference: 'row 2' },
    ]);
  });

  it('refuses an empty list, and 1,001 names in the synchronous tab only', () => {
    expect(checkBulkNames([], 'sync')?.description).toBe('Please enter at least one entity name');
    const many = Array.from({ length: 1001 }, (_, i) => `n${i}`);
    expect(checkBulkNames(many, 'sync')).toEqual({
      title: 'Batch Size Too Large',
      description: 'Maximum 1000 entities allowed per batch',
    });
    expect(checkBulkNames(many.slice(0, 1000), 'sync')).toBeNull();
    expect(checkBulkNames(many, 'job')).toBeNull();
  });

  it('checks a CSV file by name, then by size (10 MB inclusive)', () => {
    expect(checkCsvFile({ name: 'list.txt', size: 1 })?.title).toBe('Invalid file type');
    expect(checkCsvFile({ name: 'list.CSV', size: 10 * 1024 * 1024 })).toBeNull();
    expect(checkCsvFile({ name: 'list.csv', size: 10 * 1024 * 1024 + 1 })).toEqual({
      title: 'File too large',
      description: 'Please select a file smaller than 10MB.',
    });
  });

  it('reads the name column of a CSV, or the first column without a header', () => {
    expect(namesFromCsv('id,name\n1,"Doe, John"\n2,"Say ""Hi"""\n')).toEqual(['Doe, John', 'Say "Hi"']);
    expect(namesFromCsv('Alice\nBob\n')).toEqual(['Alice', 'Bob']);
    // A reference column rides along after a tab, for bulkRowsFromText.
    expect(namesFromCsv('name,reference\nAlice,C-1\nBob,\n')).toEqual(['Alice\tC-1', 'Bob']);
  });
});
