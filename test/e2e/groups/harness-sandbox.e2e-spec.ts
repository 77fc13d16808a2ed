import { describeSuites } from '../../utils/e2e-suites';

/** The harness under bwrap, and who may run it (--harness-access, --expose-harness). */
describeSuites(['harness-sandbox', 'harness-access', 'harness-remote-sandbox']);
