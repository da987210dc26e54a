import { normaliseProvenance } from '../rules/rules.mapping.js';
import type { PolicyRuleOut } from '../rules/rules.schemas.js';
import { locateSource } from '../rules/source-location.js';
import type { PolicyOut } from './policies.schemas.js';
import { PRESETS_RELEASED_AT, SYSTEM_ID, type Preset } from './presets.js';

/** A preset as the Policy shape answers it: no team, read-only, copied with its rules. */
export function presetToPolicy(preset: Preset): PolicyOut {
  return {
    id: preset.id,
    team_id: SYSTEM_ID,
    name: preset.name,
    description: preset.description,
    category: preset.category,
    status: 'active',
    source_text: preset.source_text,
    file_path: null,
    file_name: null,
    file_type: null,
    file_size_bytes: null,
    converted_file_path: null,
    is_preset: true,
    preset_source: preset.slug,
    tags: [...preset.tags],
    created_at: PRESETS_RELEASED_AT,
    updated_at: PRESETS_RELEASED_AT,
    created_by: SYSTEM_ID,
  };
}

/** A preset's rules, each pointing at the sentence of the preset's text it encodes. */
export function presetRules(preset: Preset): PolicyRuleOut[] {
  return preset.rules.map((r) => ({
    ...r,
    policy_id: preset.id,
    constraints: r.constraints.map((c) => ({ ...c })),
    provenance: normaliseProvenance({ extracted_by: 'manual', source_location: locateSource(preset.source_text, { source_text: r.natural_language }) ?? null }),
    tags: [...r.tags],
    status: 'approved',
    reviewed_by: null,
    reviewed_at: null,
    review_notes: null,
    created_at: PRESETS_RELEASED_AT,
    updated_at: PRESETS_RELEASED_AT,
  }));
}
