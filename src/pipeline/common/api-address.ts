// The one example of an API address that help texts, messages and docs show. The seed gives the
// service's address only as a placeholder ({base_url}), one that may carry a path; the example is
// a reserved example domain with a base path. test/docs/api-address.test.ts holds every example
// in the docs, the action.yml files and the workflows to it.

export const EXAMPLE_API_URL = 'https://api.example.com/v1';
