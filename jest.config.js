/** Unit specs beside their files (src/**\/*.spec.ts) and e2e suites (test/e2e). */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: false }];
module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': tsJest },
  projects: [
    { displayName: 'unit', testEnvironment: 'node', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts'], transform: { '^.+\\.ts$': tsJest } },
    { displayName: 'e2e', testEnvironment: 'node', rootDir: '.', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], transform: { '^.+\\.ts$': tsJest } },
  ],
};
