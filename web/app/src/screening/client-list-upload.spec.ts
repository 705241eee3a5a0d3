import { uploadProblem } from './client-list-upload.js';

const MB = 1024 * 1024;

describe('client list upload rules (spec §5)', () => {
  it('asks for a file and a list name first', () => {
    expect(uploadProblem(null, 'Customers')).toEqual({
      title: 'Missing information',
      description: 'Please select a file and enter a list name.',
    });
    expect(uploadProblem({ name: 'a.csv', size: 10 }, '   ')?.title).toBe('Missing information');
  });

  it('takes only .csv files, in any case', () => {
    expect(uploadProblem({ name: 'customers.xlsx', size: 10 }, 'Customers')).toEqual({
      title: 'Invalid file type',
      description: 'Please select a CSV file.',
    });
    expect(uploadProblem({ name: 'CUSTOMERS.CSV', size: 10 }, 'Customers')).toBeNull();
  });

  it('takes 10MB and refuses one byte more', () => {
    expect(uploadProblem({ name: 'big.csv', size: 10 * MB }, 'Big')).toBeNull();
    expect(uploadProblem({ name: 'big.csv', size: 10 * MB + 1 }, 'Big')).toEqual({
      title: 'File too large',
      description: 'Please select a file smaller than 10MB.',
    });
  });
});
