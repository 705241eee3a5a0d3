import { upgradeFailureMessage } from './upgrade-errors.js';

describe('upgradeFailureMessage', () => {
  it.each([
    [{ status: 401, message: 'Authentication expired' }, 'Your session has expired. Please refresh the page and try again.'],
    [{ status: 400, message: 'API key not available' }, 'Authentication issue. Please refresh the page and try again.'],
    [{ status: 500, message: 'Upgrade processing error' }, 'There was an issue processing your upgrade. Please try again or contact support.'],
    [{ status: 0, message: 'Network error' }, 'Network error. Please check your connection and try again.'],
    [{ status: 0, message: 'Request timed out. Please try again.' }, 'Request timed out. Please try again.'],
    [{ status: 400, message: 'Cannot downgrade from large to small' }, 'Downgrades are made from the billing portal.'],
    [{ status: 409, message: 'Client is already on the requested tier' }, 'You are already on this plan.'],
    [{ status: 500, message: 'Something odd' }, 'Failed to process upgrade. Please try again.'],
  ])('%j → %s', (error, expected) => {
    expect(upgradeFailureMessage(error)).toBe(expected);
  });
});
