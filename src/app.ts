import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { JobsConfig, LlmConfig } from './config.js';
import {
  createAgentConnector,
  createOutboundFence,
  createRedisRateLimiter,
  processRateLimiter,
  type AgentConnectorHandle,
  type CallRateLimiter,
  type OutboundRules,
} from './connector/index.js';
import { recordedConnector } from './connector/recorded.js';
import { clockMs } from './telemetry/recorder.js';
import type { ServiceKeys } from './crypto/keys.js';
import type { Database } from './db/database.js';
import type { Deps } from './deps.js';
import { registerAuthentication } from './http/auth.js';
import { registerErrorHandling } from './http/error-handler.js';
import { requestVersions } from './http/data-versions.js';
import { registerResponseCache } from './http/response-cache.js';
import { lazyChildLoggerFactory } from './http/lazy-logger.js';
import { registerConsole } from './http/console.js';
import { docsContentSecurityPolicy, registerSecurityHeaders } from './http/security-headers.js';
import { mcpRoutes } from './modules/mcp/mcp.routes.js';
import { registerRateLimit } from './http/rate-limit.js';
import { referenceLikeOpenApi } from './http/openapi.js';
import { HTTPError, HTTPValidationError, ValidationErrorSchema } from './http/schemas.js';
import { buildSerializer } from './http/serialization.js';
import { validatorCompiler } from './http/validation.js';
import { nowSeconds } from './ids.js';
import { agentRoutes } from './modules/agents/agents.routes.js';
import { createAgentService } from './modules/agents/agents.service.js';
import { agentImportRoutes } from './modules/agent-import/agent-import.routes.js';
import { createAgentImportService } from './modules/agent-import/agent-import.service.js';
import { domeRoutes } from './modules/dome/dome.routes.js';
import { createDetectionService } from './modules/dome/detections.service.js';
import { createDomeService } from './modules/dome/dome.service.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { createDashboardService } from './modules/dashboard/dashboard.service.js';
import { demographicRoutes } from './modules/demographics/demographics.routes.js';
import { createDemographicsService } from './modules/demographics/demographics.service.js';
import { personaRoutes } from './modules/personas/personas.routes.js';
import { createPersonaService } from './modules/personas/personas.service.js';
import { apiKeyRoutes, authTokenRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createLoginThrottle, DEFAULT_LOGIN_LIMITS, type ThrottleLimits } from './modules/auth/login-throttle.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { documentRoutes } from './modules/documents/documents.routes.js';
import { createDocumentService } from './modules/documents/documents.service.js';
import { extractionRoutes } from './modules/extraction/extraction.routes.js';
import { createExtractionService } from './modules/extraction/extraction.service.js';
import { createJobRunner, type JobRunner } from './jobs/index.js';
import { customHarnessRoutes } from './modules/custom-harnesses/custom-harnesses.routes.js';
import { createCustomHarnessService } from './modules/custom-harnesses/custom-harnesses.service.js';
import { createGenerationJob } from './modules/custom-harnesses/generation/generation-job.js';
import { evaluationRoutes } from './modules/evaluations/evaluations.routes.js';
import { createEvaluationService } from './modules/evaluations/evaluations.service.js';
import { createReportService } from './modules/evaluations/reports.service.js';
import { inProcessReportRenderer, type ReportRenderer } from './evaluation/report/renderer.js';
import { createResultService } from './modules/evaluations/results.service.js';
import { createEvaluationJob } from './modules/evaluations/run/evaluation-job.js';
import { redteamRoutes } from './modules/redteam/redteam.routes.js';
import { createRedteamService } from './modules/redteam/redteam.service.js';
import { createResultService as createRedteamResultService } from './modules/redteam/results.service.js';
import { createCampaignJob } from './modules/redteam/run/campaign-job.js';
import { policyRoutes } from './modules/policies/policies.routes.js';
import { createPolicyService } from './modules/policies/policies.service.js';
import { ruleRoutes } from './modules/rules/rules.routes.js';
import { createRuleService } from './modules/rules/rules.service.js';
import { createIdentityService } from './modules/identity/identity.service.js';
import { teamAdminRoutes } from './modules/identity/team-admin.routes.js';
import { telemetryRoutes } from './modules/telemetry/telemetry.routes.js';
import { createTelemetryService } from './modules/telemetry/telemetry.service.js';
import { createTeamAdminService } from './modules/identity/team-admin.service.js';
import { createA2aGateway } from './modules/gateway/a2a.service.js';
import { createChatCompletionsGateway } from './modules/gateway/chat-completions.service.js';
import { gatewayRoutes } from './modules/gateway/gateway.routes.js';
import { createGatewayCore, type GatewayOptions } from './modules/gateway/gateway.service.js';
import { noTelemetry, type Telemetry } from './telemetry/types.js';

export interface AppOptions {
  database: Database;
  keys: ServiceKeys;
  dataDir: string;
  passwordHashCost: number;
  tokenTtlSeconds: number;
  /** OpenAI-compatible chat endpoint for rule extraction (optional). */
  llm?: LlmConfig | undefined;
  /** Epoch seconds; tests inject a clock they control. */
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** Largest JSON body accepted, in bytes. */
  bodyLimit?: number;
  /** Requests per minute per client address (IPv6: per /64); 0 or absent: no limit. */
  rateLimitPerMinute?: number;
  /** Origins CORS allows; empty or absent: CORS off. */
  corsOrigins?: string[];
  /** Number of proxies whose X-Forwarded-For is trusted. */
  trustProxyHops?: number;
  loginLimits?: ThrottleLimits;
  /**
   * The background job runner's settings (docs/jobs.md). The runner is made here and started by
   * `app.jobs.start()` (main.ts, after listen; tests that run jobs); it stops when the app closes.
   */
  jobs?: (Partial<JobsConfig> & { workerId?: string }) | undefined;
  /** Prompts one evaluation has in flight at once (default 16). */
  evaluationConcurrency?: number | undefined;
  /** Attacks one red-team campaign has in flight at once (default 4). */
  redteamConcurrency?: number | undefined;
  /** Where agents may live (WARDEN_OUTBOUND_*); absent: the default fence (cloud metadata refused). */
  outbound?: OutboundRules;
  /** The agent connector; absent: one built with `outbound`, closed with the app. Tests inject their own. */
  connector?: AgentConnectorHandle;
  /**
   * Renders evaluation reports; absent: on the event loop (inProcessReportRenderer). The service
   * (runtime.ts) passes a worker thread's, closed with the app.
   */
  reportRenderer?: ReportRenderer;
  /**
   * The web console's build (`dist/console`, docs/console.md), served at `/`; absent or without
   * an index.html: no console, the API alone.
   */
  consoleDir?: string | undefined;
  /**
   * The gateway (docs/gateway.md): `redisUrl` shares the agents' limits across processes (also
   * the connector's, when it is built here); `timeoutMs` (default 60 s) answers 504 past it;
   * `limiter` replaces both (tests).
   */
  gateway?: { redisUrl?: string | undefined; timeoutMs?: number | undefined; limiter?: CallRateLimiter | undefined } | undefined;
  /** Where telemetry goes (runtime.ts: the batched recorder, and the OTLP export when configured); absent: noTelemetry. */
  telemetry?: Telemetry | undefined;
}

/** Never logged, whatever a log line carries (issue 7: secrets never in logs). */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-webhook-api-key"]',
  '*.password',
  '*.new_password',
  '*.current_password',
  '*.api_key',
  '*.agent_api_key',
  '*.access_token',
  '*.key',
];

function loggerOptions(logger: AppOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false || logger === true) return logger ?? false;
  return { ...logger, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

export function buildServices(deps: Deps, loginLimits: ThrottleLimits = DEFAULT_LOGIN_LIMITS, gateway?: GatewayOptions) {
  const agents = createAgentService(deps);
  const dome = createDomeService(deps);
  const gatewayCore = createGatewayCore(deps, gateway ?? { timeoutMs: 60_000, limiter: processRateLimiter }, dome);
  return {
    auth: createAuthService({ ...deps, loginThrottle: createLoginThrottle(loginLimits) }),
    identity: createIdentityService(deps),
    teamAdmin: createTeamAdminService(deps),
    agents,
    personas: createPersonaService(deps),
    demographics: createDemographicsService(deps),
    agentImport: createAgentImportService({ now: deps.now, agents, fence: deps.outboundFence }),
    dashboard: createDashboardService(deps),
    policies: createPolicyService(deps),
    rules: createRuleService(deps),
    documents: createDocumentService(deps),
    extraction: createExtractionService(deps),
    dome,
    chatCompletionsGateway: createChatCompletionsGateway(gatewayCore),
    a2aGateway: createA2aGateway(gatewayCore),
    detections: createDetectionService(deps),
    evaluations: createEvaluationService(deps),
    evaluationResults: createResultService(deps),
    evaluationReports: createReportService(deps),
    customHarnesses: createCustomHarnessService(deps),
    redteam: createRedteamService(deps),
    redteamResults: createRedteamResultService(deps),
    telemetry: createTelemetryService(deps),
  };
}
export type Services = ReturnType<typeof buildServices>;

/** A registered route, as the app knows it (for route listings and the route-wide tests). */
export interface RouteInfo {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** This process's background job runner (evaluations, custom-harness generation, red-team campaigns): started by the caller, stopped on close. */
    jobs: JobRunner;
    /** Every API route (under /v1), in registration order. */
    apiRoutes: RouteInfo[];
    /** Whether the web console is served at `/` (a build was found in `consoleDir`). */
    consoleServed: boolean;
  }
}

/** Builds the whole service without listening: main.ts listens, tests use `inject`. Reads no env. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const outboundFence = createOutboundFence(options.outbound);
  const redisLimiter = options.gateway?.limiter === undefined && options.gateway?.redisUrl ? createRedisRateLimiter(options.gateway.redisUrl) : undefined;
  const limiter = options.gateway?.limiter ?? redisLimiter ?? processRateLimiter;
  const telemetry = options.telemetry ?? noTelemetry;
  // Evaluations' and campaigns' calls are recorded in telemetry by the connector (src/connector/recorded.ts).
  const plainConnector = options.connector ?? createAgentConnector({ fence: outboundFence, limiter });
  const connector = recordedConnector(plainConnector, telemetry, clockMs(options.now ?? nowSeconds));
  const deps: Deps = {
    db: options.database.db,
    dialect: options.database.dialect,
    keys: options.keys,
    now: options.now ?? nowSeconds,
    passwordHashCost: options.passwordHashCost,
    tokenTtlSeconds: options.tokenTtlSeconds,
    dataDir: options.dataDir,
    llm: options.llm,
    readVersion: options.database.readVersion,
    connector,
    outboundFence,
    reportRenderer: options.reportRenderer ?? inProcessReportRenderer,
    telemetry,
  };
  const services = buildServices(deps, options.loginLimits, { timeoutMs: options.gateway?.timeoutMs ?? 60_000, limiter });

  const hops = options.trustProxyHops ?? 0;
  const app = Fastify({
    logger: loggerOptions(options.logger),
    // A request's child logger is made when it first writes a line (src/http/lazy-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    // Behind N proxies, the client address is the N-th from the right in X-Forwarded-For. With
    // none, `false`: the socket's address, without parsing X-Forwarded-For on every request.
    // (A function, not Fastify's numeric form: tested, `1` kept the proxy's address.)
    trustProxy: hops > 0 ? (_address: string, hop: number) => hop < hops : false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors the router raises before any route runs (a malformed URL, an over-long path
    // parameter) answer in the contract's shape too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).send({ detail: status === 414 ? 'A path parameter is too long' : 'Malformed request URL' });
    },
    ajv: { customOptions: { strict: false } },
    // fast-json-stringify over response schemas with nullable types as type lists (src/http/serialization.ts).
    schemaController: { compilersFactory: { buildSerializer } },
  });
  if (options.connector === undefined) app.addHook('onClose', async () => connector.close());
  app.addHook('onClose', async () => deps.reportRenderer.close());
  if (redisLimiter !== undefined) app.addHook('onClose', async () => redisLimiter.close());
  app.setValidatorCompiler(validatorCompiler);
  // JSON only: any other content type is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  // An empty body sent as application/json is no body: an operation that takes none (cancel,
  // apply, report, activate…) answers as the reference does, which reads no body there, whatever
  // headers a client sends by habit; where a body is required its absence is still the 422
  // `missing` at ["body"] (src/http/error-handler.ts). Same parser otherwise (poisoning: error).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
  app.decorate('services', services);
  const jobs = createJobRunner({
    db: deps.db,
    dialect: deps.dialect,
    handlers: [
      createEvaluationJob({
        db: deps.db,
        agentSecrets: deps.keys.agentSecrets,
        connector,
        llm: deps.llm,
        now: deps.now,
        concurrency: options.evaluationConcurrency ?? 16,
      }),
      createGenerationJob({ db: deps.db, llm: deps.llm, now: deps.now }),
      createCampaignJob({
        db: deps.db,
        agentSecrets: deps.keys.agentSecrets,
        connector,
        llm: deps.llm,
        now: deps.now,
        concurrency: options.redteamConcurrency ?? 4,
      }),
    ],
    ...options.jobs,
    logger: app.log,
  });
  app.decorate('jobs', jobs);
  // Before the database closes (runtime.ts closes it in an onClose hook): running jobs go back to the queue.
  app.addHook('preClose', async () => jobs.stop());
  const apiRoutes: RouteInfo[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/')) return;
    // A public route needs no credential, and /openapi.json says so (the document's default is bearer).
    if (route.config?.public === true) route.schema = { ...route.schema, security: [] };
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      apiRoutes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });
  app.addSchema(ValidationErrorSchema);
  app.addSchema(HTTPValidationError);
  app.addSchema(HTTPError);
  registerErrorHandling(app);

  // Security headers (helmet's, recorded once); the docs page sends a CSP that allows only its own files.
  // Neither asks browsers to upgrade to https unless the request came over https (issue 17).
  registerSecurityHeaders(app);
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    await app.register(cors, { origin: options.corsOrigins, credentials: false, maxAge: 600 });
  }
  // Per client address, before authentication (src/http/rate-limit.ts).
  if (options.rateLimitPerMinute && options.rateLimitPerMinute > 0) registerRateLimit(app, { max: options.rateLimitPerMinute });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Warden API',
        version: '0.1.0',
        description: 'Self-hosted control plane for AI agents. Authenticate with `Authorization: Bearer <token or API key>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (document) =>
      referenceLikeOpenApi(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Record<string, unknown>),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page's own CSP, decided per request (over https or not) where `staticCSP` is fixed.
    uiHooks: {
      onRequest: (request, reply, done) => {
        reply.header('content-security-policy', docsContentSecurityPolicy(app.swaggerCSP, request.protocol === 'https'));
        done();
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // A database that can no longer write (the SQLite writer thread stopped) makes the service
  // unhealthy: every write fails at once until a restart; the orchestrator sees it here.
  options.database.onFailure?.((error) => app.log.error({ reason: error.message }, 'the database can no longer write'));
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    const failure = options.database.failure?.();
    if (failure === undefined) return { status: 'ok' };
    return reply.code(503).send({ status: 'failing', reason: failure.message });
  });

  // Every API route lives in this context, behind authentication unless marked public.
  await app.register(async (api) => {
    const versions = requestVersions(options.database.versions);
    registerAuthentication(api, services.auth, { versions, now: deps.now });
    // Answers of routes marked `config: { cacheable: true }`, served from memory until the next
    // commit (SQLite only: docs/caching.md).
    registerResponseCache(api, { versions });
    await api.register(authTokenRoutes, { auth: services.auth });
    await api.register(apiKeyRoutes, { auth: services.auth });
    await api.register(identityRoutes, { identity: services.identity });
    await api.register(teamAdminRoutes, { teams: services.teamAdmin });
    await api.register(agentRoutes, { agents: services.agents });
    await api.register(agentImportRoutes, { agentImport: services.agentImport });
    await api.register(personaRoutes, { personas: services.personas });
    // One implementation, two mounts (the reference serves both paths).
    await api.register(demographicRoutes, { base: '/v1/demographics', demographics: services.demographics });
    await api.register(demographicRoutes, { base: '/v1/dimensions', demographics: services.demographics });
    await api.register(dashboardRoutes, { dashboard: services.dashboard });
    await api.register(policyRoutes, { policies: services.policies });
    await api.register(documentRoutes, { documents: services.documents });
    await api.register(extractionRoutes, { extraction: services.extraction });
    await api.register(ruleRoutes, { rules: services.rules });
    await api.register(domeRoutes, { dome: services.dome, detections: services.detections });
    await api.register(evaluationRoutes, { evaluations: services.evaluations, results: services.evaluationResults, reports: services.evaluationReports });
    await api.register(customHarnessRoutes, { customHarnesses: services.customHarnesses });
    await api.register(redteamRoutes, { redteam: services.redteam, results: services.redteamResults });
    await api.register(mcpRoutes, { inject: (request) => app.inject(request), version: '0.1.0' });
    await api.register(gatewayRoutes, { chatCompletions: services.chatCompletionsGateway, a2a: services.a2aGateway });
    await api.register(telemetryRoutes, { telemetry: services.telemetry });
  });
  // The console's files and its client-side routes, after the API's: exact API paths win.
  const consoleServed = options.consoleDir !== undefined && (await registerConsole(app, options.consoleDir));
  if (options.consoleDir !== undefined && !consoleServed) {
    app.log.warn({ console_dir: options.consoleDir }, 'no web console build there (npm run build makes it): the API alone is served');
  }
  app.decorate('consoleServed', consoleServed);

  return app;
}
