import { describeSuites } from '../../utils/e2e-suites';

/** The client's credentials: OAuth and OIDC flows, auth schemes, credential policy, saved secrets. */
describeSuites([
  'client-oauth-flows',
  'client-oauth',
  'client-auth',
  'client-credential-policy',
  'client-saved-secrets',
]);
