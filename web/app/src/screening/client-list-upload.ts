import { CLIENT_LIST_MAX_BYTES } from '@vigil/proto';

/** §5's upload rules, checked before anything is sent; the toast's title and text as the spec words them. */
export function uploadProblem(
  file: Pick<File, 'name' | 'size'> | null,
  name: string,
): { title: string; description: string } | null {
  if (!file || !name.trim())
    return { title: 'Missing information', description: 'Please select a file and enter a list name.' };
  if (!file.name.toLowerCase().endsWith('.csv'))
    return { title: 'Invalid file type', description: 'Please select a CSV file.' };
  if (file.size > CLIENT_LIST_MAX_BYTES)
    return { title: 'File too large', description: 'Please select a file smaller than 10MB.' };
  return null;
}
