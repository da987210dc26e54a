import type { WardenMigration } from './types.js';
import { bigint } from './types.js';

export const policies: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('policies')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('category', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('source_text', 'text')
      .addColumn('file_path', 'varchar(1024)')
      .addColumn('file_name', 'varchar(255)')
      .addColumn('file_type', 'varchar(16)')
      .addColumn('file_size_bytes', 'integer')
      .addColumn('converted_file_path', 'varchar(1024)')
      .addColumn('preset_source', 'varchar(255)')
      .addColumn('tags', 'text')
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    // The policy list is "a team's policies, filtered, in creation order".
    await db.schema.createIndex('policies_team_created_idx').on('policies').columns(['team_id', 'created_at', 'id']).execute();
    await db.schema
      .createIndex('policies_team_category_status_idx')
      .on('policies')
      .columns(['team_id', 'category', 'status', 'created_at', 'id'])
      .execute();

    // Uploaded documents live in the database, beside their policy: they survive restarts,
    // are deleted with the policy (cascade) and need no shared disk between replicas.
    await db.schema
      .createTable('policy_files')
      .addColumn('policy_id', 'varchar(36)', (c) => c.primaryKey().references('policies.id').onDelete('cascade'))
      .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('converted_markdown', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('policy_rules')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('policy_id', 'varchar(36)', (c) => c.notNull().references('policies.id').onDelete('cascade'))
      // Denormalised from the policy: GET /v1/rules/ is "a team's rules", answered from one index.
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('rule_id', 'varchar(100)', (c) => c.notNull())
      .addColumn('rule_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('action', 'varchar(100)', (c) => c.notNull())
      .addColumn('target', 'varchar(500)')
      .addColumn('assignee', 'varchar(32)')
      .addColumn('constraints', 'text', (c) => c.notNull())
      .addColumn('constraint_logic', 'varchar(16)', (c) => c.notNull())
      .addColumn('consequence', 'text', (c) => c.notNull())
      .addColumn('natural_language', 'text', (c) => c.notNull())
      .addColumn('provenance', 'text')
      .addColumn('category', 'varchar(32)')
      .addColumn('tags', 'text')
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('reviewed_by', 'varchar(36)')
      .addColumn('reviewed_at', ts)
      .addColumn('review_notes', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    // GET /v1/rules/ filters a team's rules by any of status and category and pages them in
    // creation order: each combination of filters is one index range, already in order, so
    // both the page and the count read only the index.
    const ruleIndexes: Array<[string, string[]]> = [
      ['policy_rules_team_created_idx', ['team_id', 'created_at', 'id']],
      ['policy_rules_team_status_created_idx', ['team_id', 'status', 'created_at', 'id']],
      ['policy_rules_team_category_created_idx', ['team_id', 'category', 'created_at', 'id']],
      ['policy_rules_team_status_category_created_idx', ['team_id', 'status', 'category', 'created_at', 'id']],
      ['policy_rules_policy_created_idx', ['policy_id', 'created_at', 'id']],
      ['policy_rules_policy_status_category_created_idx', ['policy_id', 'status', 'category', 'created_at', 'id']],
    ];
    for (const [name, columns] of ruleIndexes) await db.schema.createIndex(name).on('policy_rules').columns(columns).execute();
  },
};
