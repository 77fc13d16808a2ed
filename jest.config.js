/**
 * Unit specs beside their files (src/**\/*.spec.ts) and e2e suites (test/e2e).
 * ts-jest transpiles only (types are checked by `npm run typecheck`); `jose`, an ESM-only
 * dependency of @a2a-js/sdk's CommonJS build, is transpiled to CommonJS for jest's runtime.
 */
const common = {
  testEnvironment: 'node',
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.(t|j)s$': ['ts-jest', { tsconfig: "tsconfig.spec.json", diagnostics: false }] },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi)/)'],
};
module.exports = {
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // Controller tier: the real app on Fastify via inject(), no socket (test/utils/inject-app.ts).
    { ...common, displayName: 'controller', testMatch: ['<rootDir>/test/controller/**/*.controller-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], testTimeout: 30000 },
  ],
};
