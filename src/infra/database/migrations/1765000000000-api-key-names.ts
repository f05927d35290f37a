import { MigrationInterface, QueryRunner } from 'typeorm';

/** Keys get the name their owner gives them in the developer portal; keys made before have none. */
export class ApiKeyNames1765000000000 implements MigrationInterface {
  name = 'ApiKeyNames1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN name varchar(64)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN name`);
  }
}
