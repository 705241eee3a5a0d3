import { IDENTIFIER_TYPES, type ScreenEntity } from '@vigil/proto';
import { z } from 'zod';

// The entity screening form: every field POST /api/screen takes (proto screenEntitySchema), checked
// by the same rules before it is sent, so an invalid input is refused here with the rule's message.

/** The spec's wording (§2); an identifier alone also satisfies the form, as it does the API. */
export const INPUT_REQUIRED = 'Please enter either an entity name or email address to screen';

export const ENTITY_TYPE_OPTIONS = [
  ['individual', 'Individual'],
  ['organization', 'Organisation'],
  ['vessel', 'Vessel'],
  ['aircraft', 'Aircraft'],
] as const;

export const IDENTIFIER_LABELS: Record<(typeof IDENTIFIER_TYPES)[number], string> = {
  passport: 'Passport',
  'national-id': 'National ID',
  'tax-id': 'Tax ID',
  registration: 'Company registration',
  lei: 'LEI',
  'swift-bic': 'SWIFT/BIC',
  iban: 'IBAN',
  imo: 'IMO number',
  mmsi: 'MMSI',
  'crypto-address': 'Crypto address',
};

const identifierRow = z.object({ type: z.enum(IDENTIFIER_TYPES), value: z.string().trim().max(200) });

export const screeningFormSchema = z
  .object({
    name: z.string().trim().max(300, 'Names are limited to 300 characters.'),
    email: z
      .string()
      .trim()
      .max(320)
      .refine((value) => value === '' || z.email().safeParse(value).success, 'Please enter a valid email address.'),
    dateOfBirth: z
      .string()
      .trim()
      .refine(
        (value) => value === '' || /^\d{4}(-\d{2}(-\d{2})?)?$/.test(value),
        'Date of birth must be YYYY, YYYY-MM or YYYY-MM-DD.',
      ),
    nationality: z
      .string()
      .trim()
      .refine(
        (value) => value === '' || (value.length >= 2 && value.length <= 60),
        'Nationality must be 2 to 60 characters.',
      ),
    entityType: z.enum(['', 'individual', 'organization', 'vessel', 'aircraft']),
    customerReference: z.string().trim().max(200, 'Customer references are limited to 200 characters.'),
    identifiers: z.array(identifierRow).max(20),
  })
  .refine((form) => form.name !== '' || form.email !== '' || form.identifiers.some((i) => i.value !== ''), {
    message: INPUT_REQUIRED,
    path: ['name'],
  });
export type ScreeningForm = z.input<typeof screeningFormSchema>;

export const EMPTY_SCREENING_FORM: ScreeningForm = {
  name: '',
  email: '',
  dateOfBirth: '',
  nationality: '',
  entityType: '',
  customerReference: '',
  identifiers: [],
};

/** The request body: only the fields filled in, identifiers without a value left out. */
export function screenRequestOf(form: z.output<typeof screeningFormSchema>): ScreenEntity {
  const identifiers = form.identifiers.filter((i) => i.value !== '');
  return {
    ...(form.name ? { name: form.name } : {}),
    ...(form.email ? { email: form.email } : {}),
    ...(form.dateOfBirth ? { dateOfBirth: form.dateOfBirth } : {}),
    ...(form.nationality ? { nationality: form.nationality } : {}),
    ...(form.entityType ? { entityType: form.entityType } : {}),
    ...(form.customerReference ? { customerReference: form.customerReference } : {}),
    ...(identifiers.length > 0 ? { identifiers } : {}),
  };
}

/** How the result header names the input it answers: the name, else the email, else the identifiers. */
export function describeInput(request: ScreenEntity): string {
  if (request.name) return request.name;
  if (request.email) return request.email;
  return (request.identifiers ?? []).map((i) => `${IDENTIFIER_LABELS[i.type]} ${i.value}`).join(', ');
}
