import { decisionProblems, reasonLabel, REASON_LABEL, REASONS_FOR } from './review-reasons.js';

describe('review decisions', () => {
  it('labels every reason code either action offers', () => {
    for (const code of [...REASONS_FOR.approve, ...REASONS_FOR.block]) expect(REASON_LABEL[code]).toBeDefined();
    expect(reasonLabel('confirmed_match')).toBe('Confirmed match');
    expect(reasonLabel('other')).toBe('Other');
    expect(reasonLabel(null)).toBe('—');
  });

  it('asks for an action, then a reason from that action’s list, then a note for Other', () => {
    expect(decisionProblems({ action: null, reasonCode: null, note: '' })).toHaveProperty('action');
    expect(decisionProblems({ action: 'approve', reasonCode: null, note: '' })).toHaveProperty('reasonCode');
    expect(decisionProblems({ action: 'approve', reasonCode: 'confirmed_match', note: '' })).toHaveProperty(
      'reasonCode',
    );
    expect(decisionProblems({ action: 'block', reasonCode: 'other', note: '  ' })).toHaveProperty('note');
    expect(decisionProblems({ action: 'block', reasonCode: 'other', note: 'seen in press' })).toEqual({});
    expect(decisionProblems({ action: 'approve', reasonCode: 'different_person_dob', note: '' })).toEqual({});
  });
});
