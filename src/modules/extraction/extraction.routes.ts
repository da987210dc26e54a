import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { PolicyParams } from '../policies/policies.schemas.js';
import { ExtractionResponse } from './extraction.schemas.js';
import type { ExtractionService } from './extraction.service.js';

const tags = ['Agent Environment', 'policies'];

export const extractionRoutes: FastifyPluginAsyncTypebox<{ extraction: ExtractionService }> = async (app, { extraction }) => {
  app.post(
    '/v1/policies/:policy_id/extract-rules',
    {
      schema: {
        tags,
        summary: "Extract draft rules from the policy's text with the configured language model",
        description: 'An addition to the reference. Answers 503 when no model is configured (WARDEN_LLM_BASE_URL, WARDEN_LLM_MODEL).',
        params: PolicyParams,
        response: responses({ 201: ExtractionResponse }, 400, 401, 403, 404, 422, [503, 'No language model is configured, or it failed']),
      },
    },
    async (request, reply) => reply.code(201).send(await extraction.extract(request.principal, request.params.policy_id)),
  );
};
