/**
 * Unit specs beside their files (src/**\/*.spec.ts) and e2e suites (test/e2e).
 * ts-jest transpiles only (types are checked by `npm run typecheck`); `jose`, an ESM-only
 * dependency of @a2a-js/sdk's CommonJS build, is transpiled to CommonJS for jest's runtime.
 */
const { availableParallelism } = require('node:os');

const common = {
  testEnvironment: 'node',
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.(t|j)s$': ['ts-jest', { tsconfig: "tsconfig.spec.json", diagnostics: false }] },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi)/)'],
};
module.exports = {
  // At least 3 workers (issue #13): most e2e suites wait on child processes, sockets and timers,
  // so jest's default (cores - 1: one worker, run in band, on a 2-core machine) leaves a core idle.
  // `--maxWorkers` / `-i` on the command line still win.
  maxWorkers: Math.max(3, availableParallelism() - 1),
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // Controller tier: the real app on Fastify via inject(), no socket (test/utils/inject-app.ts).
    { ...common, displayName: 'controller', testMatch: ['<rootDir>/test/controller/**/*.controller-spec.ts'] },
    // 60 s: with suites side by side a loaded machine stretches process starts (no test asserts on time).
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], testTimeout: 60000 },
  ],
};
