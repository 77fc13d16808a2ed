import { describeSuites } from '../../utils/e2e-suites';

/** The client's credentials: OAuth and OIDC flows, auth schemes, mTLS, saved secrets. */
describeSuites([
  'client-oauth-flows',
  'client-oauth',
  'client-auth',
  'client-mtls',
  'client-credential-policy',
  'client-saved-secrets',
]);
