import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/schemas.js';
import {
  BulkValuesRequest,
  DemographicDimension,
  DemographicDimensionCreate,
  DemographicDimensionUpdate,
  DemographicValue,
  DemographicValueCreate,
  DemographicValueUpdate,
  DimensionIdParams,
  DimensionListQuery,
  DimensionListResponse,
  DimensionNameParams,
  ValueIdParams,
  ValueListQuery,
  ValueListResponse,
} from './demographics.schemas.js';
import type { DemographicsService } from './demographics.service.js';

const tags = ['Agent Environment', 'demographics'];
const NoContent = Type.Null({ description: 'Deleted' });

/** The reference serves the same operations under /v1/demographics/ and /v1/dimensions/: register this plugin once per base. */
export const demographicRoutes: FastifyPluginAsyncTypebox<{ base: '/v1/demographics' | '/v1/dimensions'; demographics: DemographicsService }> = async (
  app,
  { base, demographics },
) => {
  app.get(
    `${base}/`,
    {
      schema: {
        tags,
        summary: 'List demographic dimensions (without their values)',
        querystring: DimensionListQuery,
        response: responses({ 200: DimensionListResponse }, 401, 403, 422),
      },
    },
    async (request) =>
      demographics.list(request.principal, request.query.protected_class_only === true, request.query.limit, request.query.offset),
  );

  app.post(
    `${base}/`,
    {
      schema: {
        tags,
        summary: 'Create a dimension (super admin)',
        body: DemographicDimensionCreate,
        response: responses({ 201: DemographicDimension }, 401, 403, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await demographics.create(request.principal, request.body)),
  );

  app.get(
    `${base}/by-name/:name`,
    {
      schema: {
        tags,
        summary: 'Get a dimension by name, with its values',
        params: DimensionNameParams,
        response: responses({ 200: DemographicDimension }, 401, 403, 404, 422),
      },
    },
    async (request) => demographics.getByName(request.principal, request.params.name),
  );

  app.put(
    `${base}/values/:value_id`,
    {
      schema: {
        tags,
        summary: 'Update a value (super admin)',
        params: ValueIdParams,
        body: DemographicValueUpdate,
        response: responses({ 200: DemographicValue }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => demographics.updateValue(request.principal, request.params.value_id, request.body),
  );

  app.delete(
    `${base}/values/:value_id`,
    {
      schema: {
        tags,
        summary: 'Delete a value (super admin)',
        params: ValueIdParams,
        response: responses({ 204: NoContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      await demographics.removeValue(request.principal, request.params.value_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:dimension_id`,
    {
      schema: {
        tags,
        summary: 'Get a dimension, with its values',
        params: DimensionIdParams,
        response: responses({ 200: DemographicDimension }, 401, 403, 404, 422),
      },
    },
    async (request) => demographics.get(request.principal, request.params.dimension_id),
  );

  app.put(
    `${base}/:dimension_id`,
    {
      schema: {
        tags,
        summary: 'Update a dimension (super admin)',
        params: DimensionIdParams,
        body: DemographicDimensionUpdate,
        response: responses({ 200: DemographicDimension }, 401, 403, 404, 422),
      },
    },
    async (request) => demographics.update(request.principal, request.params.dimension_id, request.body),
  );

  app.delete(
    `${base}/:dimension_id`,
    {
      schema: {
        tags,
        summary: 'Delete a dimension and its values (super admin)',
        params: DimensionIdParams,
        response: responses({ 204: NoContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      await demographics.remove(request.principal, request.params.dimension_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:dimension_id/values`,
    {
      schema: {
        tags,
        summary: "List a dimension's values (by sort_order)",
        params: DimensionIdParams,
        querystring: ValueListQuery,
        response: responses({ 200: ValueListResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => demographics.listValues(request.principal, request.params.dimension_id, request.query.limit, request.query.offset),
  );

  app.post(
    `${base}/:dimension_id/values`,
    {
      schema: {
        tags,
        summary: 'Add a value to a dimension (super admin)',
        params: DimensionIdParams,
        body: DemographicValueCreate,
        response: responses({ 201: DemographicValue }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await demographics.addValue(request.principal, request.params.dimension_id, request.body)),
  );

  app.post(
    `${base}/:dimension_id/values/bulk`,
    {
      schema: {
        tags,
        summary: 'Add several values at once, all or nothing (super admin)',
        params: DimensionIdParams,
        body: BulkValuesRequest,
        response: responses({ 201: Type.Array(DemographicValue) }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) =>
      reply.code(201).send(await demographics.bulkAddValues(request.principal, request.params.dimension_id, request.body.values)),
  );
};
