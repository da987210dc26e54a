import type { PolicyRow } from './policies.repo.js';
import type { PolicyOut } from './policies.schemas.js';
import { decodeStringList, toJsonColumn } from '../../db/json-columns.js';

export const json = toJsonColumn;

export function toPolicy(row: PolicyRow): PolicyOut {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    description: row.description,
    category: row.category as PolicyOut['category'],
    status: row.status as PolicyOut['status'],
    source_text: row.source_text,
    file_path: row.file_path,
    file_name: row.file_name,
    file_type: row.file_type,
    file_size_bytes: row.file_size_bytes === null ? null : Number(row.file_size_bytes),
    converted_file_path: row.converted_file_path,
    is_preset: false,
    preset_source: row.preset_source,
    tags: decodeStringList(row.tags, 'policies.tags'),
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
  };
}
