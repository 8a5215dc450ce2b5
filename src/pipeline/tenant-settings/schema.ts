// The JSON Schema of `.tenant-scan/tenant.yml`. Validation uses this object; the shipped copy
// schemas/tenant.schema.json (for editor completion) is checked equal to it by a test.

const days = (what: string, fallback: number) => ({
  description: `${what} (default ${fallback}); false switches the rule off.`,
  oneOf: [{ type: 'integer', minimum: 1, maximum: 3650 }, { const: false }],
});

export const TENANT_FILE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://github.com/tenant-scan/tenant-scan/schemas/tenant.schema.json',
  title: 'tenant-scan tenant settings (.tenant-scan/tenant.yml)',
  description:
    'What the tenant should look like: notification settings, attack-surface targets and hygiene rules. A field left out is not managed.',
  type: 'object',
  additionalProperties: false,
  properties: {
    notifications: {
      description:
        'Notification settings; each field is optional and only the fields given are managed.',
      type: 'object',
      additionalProperties: false,
      properties: {
        emailOnComplete: { type: 'boolean', description: 'Email when a scan completes.' },
        emailOnFail: { type: 'boolean', description: 'Email when a scan fails.' },
        teamsOnComplete: {
          type: 'boolean',
          description: 'Post to the webhook when a scan completes.',
        },
        teamsOnFail: { type: 'boolean', description: 'Post to the webhook when a scan fails.' },
        teamsWebhookUrlEnv: {
          description:
            'Name of the environment variable that holds the team-chat webhook address (e.g. from a secret). The address itself is never written in this file.',
          type: 'string',
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        },
        teamsWebhookUrl: {
          description: 'Only null: no webhook. Name the address with teamsWebhookUrlEnv instead.',
          type: 'null',
        },
      },
      not: { required: ['teamsWebhookUrlEnv', 'teamsWebhookUrl'] },
    },
    attackSurface: {
      description: 'External attack-surface targets.',
      type: 'object',
      additionalProperties: false,
      properties: {
        prune: {
          type: 'boolean',
          default: false,
          description: 'Remove targets of the tenant that are not listed (default false).',
        },
        targets: {
          type: 'array',
          maxItems: 500,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['host'],
            properties: {
              host: {
                type: 'string',
                minLength: 1,
                maxLength: 253,
                pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$',
                description: 'Hostname or IPv4 address.',
              },
              label: { type: 'string', maxLength: 255, description: 'Label shown for the target.' },
              verify: {
                type: 'boolean',
                default: false,
                description: 'Ask the service to verify the target when it is not yet verified.',
              },
            },
          },
        },
      },
    },
    hygiene: {
      description: 'Hygiene rules; each holds with its default when not given.',
      type: 'object',
      additionalProperties: false,
      properties: {
        keyUnusedDays: days('A key unused (or never used and older) for this many days', 30),
        keyMaxAgeDays: days('A key older than this many days', 90),
        keysNearCap: {
          description:
            'Warn when this many of the 10 keys exist (default 8); false switches it off.',
          oneOf: [{ type: 'integer', minimum: 1, maximum: 10 }, { const: false }],
        },
        scanStaleDays: days(
          'No completed scan of a type that completed before for this many days',
          8,
        ),
      },
    },
  },
} as const;
