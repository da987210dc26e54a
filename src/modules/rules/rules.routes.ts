import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/schemas.js';
import { PolicyParams } from '../policies/policies.schemas.js';
import {
  ApproveQuery,
  PolicyRule,
  PolicyRuleCreate,
  PolicyRuleListResponse,
  PolicyRulesQuery,
  PolicyRuleUpdate,
  RejectQuery,
  RuleListQuery,
  RuleListResponse,
  RuleParams,
} from './rules.schemas.js';
import { RULE_LIST_READS } from './rules.repo.js';
import type { RuleService } from './rules.service.js';

const tags = ['Agent Environment', 'policy-rules'];
/** A policy's rules are reached under /v1/policies, which the reference tags `policies`. */
const policyTags = ['Agent Environment', 'policies'];
const NoContent = Type.Null({ description: 'Deleted' });

export const ruleRoutes: FastifyPluginAsyncTypebox<{ rules: RuleService }> = async (app, { rules }) => {
  app.get(
    '/v1/policies/:policy_id/rules',
    {
      schema: {
        tags: policyTags,
        summary: "A policy's rules, in creation order",
        params: PolicyParams,
        querystring: PolicyRulesQuery,
        response: responses({ 200: PolicyRuleListResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => rules.listForPolicy(request.principal, request.params.policy_id, request.query.limit, request.query.offset),
  );

  app.post(
    '/v1/policies/:policy_id/rules',
    {
      schema: {
        tags: policyTags,
        summary: 'Create a rule by hand',
        params: PolicyParams,
        body: PolicyRuleCreate,
        response: responses({ 201: PolicyRule }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await rules.create(request.principal, request.params.policy_id, request.body)),
  );

  app.get(
    '/v1/rules/',
    {
      // Answered from memory, per credential and URL, until a commit changes the rules or the
      // identity tables (docs/caching.md).
      config: { cacheable: { reads: RULE_LIST_READS } },
      schema: {
        tags,
        summary: "List your team's rules (seed 4.3): creation order, count of all matching rules",
        querystring: RuleListQuery,
        response: responses({ 200: RuleListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => rules.list(request.principal, request.query),
  );

  app.get(
    '/v1/rules/:rule_id',
    { schema: { tags, summary: 'Get a rule', params: RuleParams, response: responses({ 200: PolicyRule }, 401, 403, 404, 422) } },
    async (request) => rules.get(request.principal, request.params.rule_id),
  );

  app.patch(
    '/v1/rules/:rule_id',
    {
      schema: {
        tags,
        summary: 'Update a rule (a changed approved or rejected rule becomes "modified")',
        params: RuleParams,
        body: PolicyRuleUpdate,
        response: responses({ 200: PolicyRule }, 401, 403, 404, 422),
      },
    },
    async (request) => rules.update(request.principal, request.params.rule_id, request.body),
  );

  app.delete(
    '/v1/rules/:rule_id',
    { schema: { tags, summary: 'Delete a rule', params: RuleParams, response: responses({ 204: NoContent }, 401, 403, 404, 422) } },
    async (request, reply) => {
      await rules.remove(request.principal, request.params.rule_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/rules/:rule_id/approve',
    {
      schema: {
        tags,
        summary: 'Approve a rule (optional notes)',
        params: RuleParams,
        querystring: ApproveQuery,
        response: responses({ 200: PolicyRule }, 401, 403, 404, 422),
      },
    },
    async (request) => rules.approve(request.principal, request.params.rule_id, request.query.notes),
  );

  app.post(
    '/v1/rules/:rule_id/reject',
    {
      schema: {
        tags,
        summary: 'Reject a rule (reason required)',
        params: RuleParams,
        querystring: RejectQuery,
        response: responses({ 200: PolicyRule }, 401, 403, 404, 422),
      },
    },
    async (request) => rules.reject(request.principal, request.params.rule_id, request.query.reason),
  );
};
