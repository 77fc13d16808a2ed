import { DataSource } from 'typeorm';
import { tasksDataSourceOptions } from '../../modules/tasks/tasks-datasource';
import { harnessDataSourceOptions } from '../../modules/harness/ledger/harness-ledger-datasource';
import { createTestDatabase, storeBackends } from '../../../test/utils/postgres';
import { runStoreMigrations } from './store-migrations';

const pg = storeBackends().includes('postgres');

(pg ? describe : describe.skip)(`${runStoreMigrations.name} on PostgreSQL`, () => {
  it.each([
    ['tasks', 'a2a_tasks_migrations'],
    ['harness ledger', 'harness_migrations'],
  ])(
    'four instances migrating the %s schema at once apply each migration exactly once',
    async (store, table) => {
      const database = await createTestDatabase();
      const location = { path: null, databaseUrl: database.url, migrate: true };
      const options =
        store === 'tasks' ? tasksDataSourceOptions(location) : harnessDataSourceOptions(location);
      const sources = await Promise.all(
        Array.from({ length: 4 }, () =>
          new DataSource({ ...options, migrationsRun: false }).initialize(),
        ),
      );
      try {
        const applied = await Promise.all(sources.map((s) => runStoreMigrations(s)));
        expect(applied.flat()).toHaveLength(1);
        expect(await sources[0].query(`SELECT "name" FROM "${table}"`)).toHaveLength(1);
      } finally {
        for (const s of sources) await s.destroy();
        await database.drop();
      }
    },
  );
});
