import goReadme from '../../../../sdk/go/README.md?raw';
import javaReadme from '../../../../sdk/java/README.md?raw';
import pythonReadme from '../../../../sdk/python/README.md?raw';
import typescriptReadme from '../../../../sdk/typescript/README.md?raw';

export type Sdk = {
  id: 'typescript' | 'python' | 'java' | 'go';
  name: string;
  /** What an integrator installs or imports. */
  pkg: string;
  where: string;
  /** What it does beyond typing, true of this SDK. */
  summary: string;
  /** The README's example, which web/e2e/sdk.e2e.ts and sdks.e2e.ts run against a real stack. */
  example: string;
  /** The README's webhook verification snippet. */
  webhook: string;
  /** The README's program from a receiver on 127.0.0.1 to a verified test event, which the same tests run. */
  localWebhook: string;
};

/** The README section holding that program. */
export const LOCAL_WEBHOOK_HEADING = 'Receiving a test webhook on 127.0.0.1';

/** The first ```language block of a README, or of its section under `heading`. */
export function codeBlock(readme: string, language: string, heading?: string): string {
  const text = heading ? (readme.split(`\n## ${heading}\n`)[1] ?? '') : readme;
  return new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text)?.[1]?.trim() ?? '';
}

const RETRYING =
  'Retries (network errors, 429, 503) under one Idempotency-Key, problems as typed errors with their code; webhook verification.';

/** Only SDKs that exist, each typed from the OpenAPI document and tested against a running gateway. */
export const SDKS: readonly Sdk[] = [
  {
    id: 'typescript',
    name: 'TypeScript / Node.js',
    pkg: '@vigil/sdk',
    where: 'sdk/typescript',
    summary:
      'openapi-fetch calls answering { data, error }, or unwrap() for the data or a typed VigilProblemError; ' +
      'retries (network errors, 429, 503) under one Idempotency-Key; webhook verification.',
    example: codeBlock(typescriptReadme, 'js'),
    webhook: codeBlock(typescriptReadme, 'js', 'Verifying a webhook'),
    localWebhook: codeBlock(typescriptReadme, 'js', LOCAL_WEBHOOK_HEADING),
  },
  {
    id: 'python',
    name: 'Python',
    pkg: 'vigil-sdk',
    where: 'sdk/python',
    summary: RETRYING,
    example: codeBlock(pythonReadme, 'python'),
    webhook: codeBlock(pythonReadme, 'python', 'Verifying a webhook'),
    localWebhook: codeBlock(pythonReadme, 'python', LOCAL_WEBHOOK_HEADING),
  },
  {
    id: 'java',
    name: 'Java',
    pkg: 'dev.vigil:vigil-sdk',
    where: 'sdk/java',
    summary: RETRYING,
    example: codeBlock(javaReadme, 'java'),
    webhook: codeBlock(javaReadme, 'java', 'Verifying a webhook'),
    localWebhook: codeBlock(javaReadme, 'java', LOCAL_WEBHOOK_HEADING),
  },
  {
    id: 'go',
    name: 'Go',
    pkg: 'github.com/vigil-dev/vigil/sdk/go',
    where: 'sdk/go',
    summary: RETRYING,
    example: codeBlock(goReadme, 'go'),
    webhook: codeBlock(goReadme, 'go', 'Verifying a webhook'),
    localWebhook: codeBlock(goReadme, 'go', LOCAL_WEBHOOK_HEADING),
  },
];

/** Languages with no SDK yet: listed as planned, never as available. */
export const PLANNED_SDKS = ['PHP', 'C#', 'Ruby'] as const;
