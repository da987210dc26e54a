import { Type } from 'typebox';
import { PolicyRule } from '../rules/rules.schemas.js';

export const ExtractionResponse = Type.Object(
  {
    results: Type.Array(PolicyRule),
    total: Type.Integer({ description: 'Rules created' }),
    skipped: Type.Integer({ description: 'Rules the model proposed that were dropped (invalid, or their source text is not in the document)' }),
  },
  { title: 'RuleExtractionResponse' },
);
