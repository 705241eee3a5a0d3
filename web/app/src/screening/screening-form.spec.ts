import {
  describeInput,
  EMPTY_SCREENING_FORM,
  INPUT_REQUIRED,
  screeningFormSchema,
  screenRequestOf,
} from './screening-form.js';

const parse = (over: object) => screeningFormSchema.safeParse({ ...EMPTY_SCREENING_FORM, ...over });

describe('the screening form', () => {
  it('sends only the fields filled in, identifiers with a value', () => {
    const form = parse({
      name: ' Jane Doe ',
      dateOfBirth: '1980-02',
      nationality: 'GB',
      entityType: 'individual',
      customerReference: 'C-1',
      identifiers: [
        { type: 'passport', value: 'P123' },
        { type: 'iban', value: '' },
      ],
    });
    expect(form.success && screenRequestOf(form.data)).toEqual({
      name: 'Jane Doe',
      dateOfBirth: '1980-02',
      nationality: 'GB',
      entityType: 'individual',
      customerReference: 'C-1',
      identifiers: [{ type: 'passport', value: 'P123' }],
    });
    const nameOnly = parse({ name: 'Jane' });
    expect(nameOnly.success && screenRequestOf(nameOnly.data)).toEqual({ name: 'Jane' });
  });

  it('refuses what the API would refuse, with the rule', () => {
    const messages = (over: object) => parse(over).error?.issues.map((i) => i.message) ?? [];
    expect(messages({})).toEqual([INPUT_REQUIRED]);
    expect(messages({ name: 'Jane', dateOfBirth: '02/1980' })).toEqual([
      'Date of birth must be YYYY, YYYY-MM or YYYY-MM-DD.',
    ]);
    expect(messages({ name: 'Jane', nationality: 'G' })).toEqual(['Nationality must be 2 to 60 characters.']);
    expect(messages({ identifiers: [{ type: 'imo', value: '9074729' }] })).toEqual([]);
  });

  it('names the input the result answers', () => {
    expect(describeInput({ name: 'Jane', email: 'j@example.com' })).toBe('Jane');
    expect(describeInput({ email: 'j@example.com' })).toBe('j@example.com');
    expect(describeInput({ identifiers: [{ type: 'imo', value: '9074729' }] })).toBe('IMO number 9074729');
  });
});
