import { splitServerMessage } from './server-message.js';

describe('splitServerMessage', () => {
  it('uses the words before the colon as the toast title', () => {
    expect(splitServerMessage('Invalid Invitation: The invitation code is invalid or expired.')).toEqual({
      title: 'Invalid Invitation',
      description: 'The invitation code is invalid or expired.',
    });
  });

  it('titles a plain message Error', () => {
    expect(splitServerMessage('Invalid login credentials')).toEqual({ title: 'Error', description: 'Invalid login credentials' });
  });
});
