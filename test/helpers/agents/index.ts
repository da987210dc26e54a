/** Loopback test agents for the connector, evaluation, red-team and gateway tests (README.md here). */
export {
  startTestAgent,
  type A2aMethod,
  type RecordedRequest,
  type ScriptStep,
  type TestAgent,
  type TestAgentBehaviour,
  type TestAgentOptions,
} from './server.js';
export { answer, compliantAnswer, crescendoAnswer, refusingAnswer, FAKE_PERSON, PROFANITY, REFUSALS, type AskContext, type Brain } from './brains.js';
export { decodeRequest, englishScore, rot13, unleet, type DecodedRequest, type Encoding } from './decode.js';
