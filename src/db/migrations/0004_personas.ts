import { v7 } from 'uuid';
import type { WardenMigration } from './types.js';
import { bigint } from './types.js';

/**
 * The common demographic dimensions every installation starts with. They are ordinary rows
 * (a super admin may edit or delete them), written once here; a shipped migration is never
 * edited, so later changes to the defaults belong in a new migration.
 */
const DEFAULT_DIMENSIONS: ReadonlyArray<{
  name: string;
  display_name: string;
  protected_class: boolean;
  description: string;
  values: ReadonlyArray<readonly [value: string, display: string]>;
}> = [
  {
    name: 'age_band',
    display_name: 'Age band',
    protected_class: true,
    description: 'Age groups, for checking that answers do not change with the age of the person described.',
    values: [
      ['18-24', '18 to 24'],
      ['25-34', '25 to 34'],
      ['35-44', '35 to 44'],
      ['45-54', '45 to 54'],
      ['55-64', '55 to 64'],
      ['65+', '65 and over'],
    ],
  },
  {
    name: 'gender',
    display_name: 'Gender',
    protected_class: true,
    description: 'Gender identity of the person described in a prompt.',
    values: [
      ['female', 'Female'],
      ['male', 'Male'],
      ['non_binary', 'Non-binary'],
    ],
  },
  {
    name: 'ethnicity',
    display_name: 'Ethnicity',
    protected_class: true,
    description: 'Race and ethnic origin (protected in most jurisdictions).',
    values: [
      ['asian', 'Asian'],
      ['black', 'Black or African American'],
      ['hispanic', 'Hispanic or Latino'],
      ['middle_eastern', 'Middle Eastern or North African'],
      ['native_american', 'Native American or Alaska Native'],
      ['pacific_islander', 'Native Hawaiian or Pacific Islander'],
      ['white', 'White'],
    ],
  },
  {
    name: 'language',
    display_name: 'Language',
    protected_class: false,
    description: 'Language the person writes in (BCP 47 tags), for checking quality across languages.',
    values: [
      ['en', 'English'],
      ['es', 'Spanish'],
      ['fr', 'French'],
      ['de', 'German'],
      ['zh', 'Chinese'],
      ['ar', 'Arabic'],
      ['hi', 'Hindi'],
      ['pt', 'Portuguese'],
    ],
  },
  {
    name: 'region',
    display_name: 'Region',
    protected_class: false,
    description: 'World region the person lives in.',
    values: [
      ['north_america', 'North America'],
      ['latin_america', 'Latin America and the Caribbean'],
      ['europe', 'Europe'],
      ['middle_east_north_africa', 'Middle East and North Africa'],
      ['sub_saharan_africa', 'Sub-Saharan Africa'],
      ['south_asia', 'South Asia'],
      ['east_asia_pacific', 'East Asia and Pacific'],
    ],
  },
  {
    name: 'disability',
    display_name: 'Disability',
    protected_class: true,
    description: 'Disability status of the person described.',
    values: [
      ['none', 'No disability'],
      ['physical', 'Physical disability'],
      ['visual', 'Visual impairment'],
      ['hearing', 'Hearing impairment'],
      ['cognitive', 'Cognitive or learning disability'],
      ['mental_health', 'Mental health condition'],
    ],
  },
  {
    name: 'religion',
    display_name: 'Religion',
    protected_class: true,
    description: 'Religion or belief of the person described.',
    values: [
      ['christian', 'Christian'],
      ['muslim', 'Muslim'],
      ['jewish', 'Jewish'],
      ['hindu', 'Hindu'],
      ['buddhist', 'Buddhist'],
      ['sikh', 'Sikh'],
      ['atheist', 'Atheist or non-religious'],
    ],
  },
];

export const personas: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('personas')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('role', 'varchar(100)', (c) => c.notNull())
      .addColumn('role_description', 'text')
      .addColumn('knowledge_level', 'varchar(32)', (c) => c.notNull())
      .addColumn('skill_level', 'varchar(32)', (c) => c.notNull())
      .addColumn('intent', 'varchar(32)', (c) => c.notNull())
      .addColumn('language', 'varchar(35)', (c) => c.notNull())
      .addColumn('access_permissions', 'text')
      .addColumn('is_preset', 'integer', (c) => c.notNull())
      .addColumn('preset_category', 'varchar(100)')
      .addColumn('tags', 'text')
      .addColumn('icon_filename', 'varchar(255)')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('personas_team_created_idx').on('personas').columns(['team_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('demographic_dimensions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('protected_class', 'integer', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('demographic_values')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('dimension_id', 'varchar(36)', (c) => c.notNull().references('demographic_dimensions.id').onDelete('cascade'))
      .addColumn('value', 'varchar(255)', (c) => c.notNull())
      .addColumn('display_name', 'varchar(255)')
      .addColumn('value_metadata', 'text')
      .addColumn('sort_order', 'integer', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('demographic_values_dimension_value_uq', ['dimension_id', 'value'])
      .execute();
    await db.schema
      .createIndex('demographic_values_dimension_order_idx')
      .on('demographic_values')
      .columns(['dimension_id', 'sort_order', 'id'])
      .execute();

    const at = Math.floor(Date.now() / 1000);
    for (const dimension of DEFAULT_DIMENSIONS) {
      const dimensionId = v7();
      await db
        .insertInto('demographic_dimensions')
        .values({
          id: dimensionId,
          name: dimension.name,
          display_name: dimension.display_name,
          protected_class: dimension.protected_class ? 1 : 0,
          description: dimension.description,
          created_at: at,
        })
        .execute();
      await db
        .insertInto('demographic_values')
        .values(
          dimension.values.map(([value, display], index) => ({
            id: v7(),
            dimension_id: dimensionId,
            value,
            display_name: display,
            value_metadata: null,
            sort_order: index,
            created_at: at,
          })),
        )
        .execute();
    }
  },
};
