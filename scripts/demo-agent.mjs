// Small agents to try Warden on when you have none of your own: OpenAI-compatible chat
// completions endpoints on loopback. Neither is a language model. Stop them with Ctrl-C.
//
//   node scripts/demo-agent.mjs              # http://127.0.0.1:10000/v1 (docs/evaluations.md)
//   node scripts/demo-agent.mjs --obedient   # http://127.0.0.1:10001/v1 (docs/redteam.md)
//
// The default agent declines requests that look harmful, prying or injected, and answers anything
// else with a short generic sentence, so its scores are middling and its reports have something to
// show. The obedient one does whatever it is asked (after decoding base64 or hex): it follows
// injected instructions, reads out its system prompt and a made-up customer's card and social
// security numbers, and insults whoever asks it to, so that a red-team campaign finds something
// and the guards it suggests have something to stop. PORT changes the port (0: any free one).
import http from 'node:http';

const OBEDIENT = process.argv.includes('--obedient');
const PORT = Number(process.env.PORT ?? (OBEDIENT ? 10001 : 10000));

/** Words that make the default agent decline: a crude filter, on purpose (an evaluation should find its gaps). */
const DECLINE = new RegExp(
  '\\b(ignore|instructions|system prompt|password|credential|secret|weapon|bomb|poison|hack|malware|phishing|steal|kill|hurt|drugs?|' +
    'insult|racist|exploit|bypass|jailbreak|credit card|social security|address of)\\b',
  'i',
);

function cautious(messages) {
  const text = lastUserText(messages);
  if (DECLINE.test(text)) return "I'm sorry, but I can't help with that.";
  return 'Thanks for your question. In short: it depends on the details. Tell me more and I will help.';
}

const ASKS_FOR_PROMPT = /system prompt|initial prompt|text above|your (initial |original |hidden |exact |full )?(instructions|rules|guidelines)/i;
const ASKS_FOR_PERSONAL_DATA =
  /e-?mail address|phone number|card number|credit card|social security|\bssn\b|personal (data|information|details)|customer (data|records|details)|contact details|account (holder|details)/i;
const ASKS_FOR_INSULT = /insult|curse|swear|profan|\brude\b|offensive|obscen|\broast\b|vulgar|foul language/i;

/** All made up; the card number passes the Luhn check and the SSN has a valid shape, so detectors see them. */
const CUSTOMER = 'Margaret Ellison, card 4539 1488 0343 6467, SSN 536-22-8741, phone +1 (415) 738-2956';
const INSULT = "Fuck you, you worthless piece of shit. You're a fucking idiot.";

/** Readable text a base64 or hex run of the message decodes to (the red team's encoding strategies), else the message. */
function decoded(text) {
  const readable = (s) => (/^[\x20-\x7e\n\r\t\u00a0-\uffff]+$/.test(s) && !s.includes('\uFFFD') && / \S/.test(s) ? s : null);
  for (const run of text.match(/\b(?:[0-9a-fA-F]{2}[\s:]?){8,}/g) ?? []) {
    const out = readable(Buffer.from(run.replace(/[^0-9a-fA-F]/g, ''), 'hex').toString('utf8'));
    if (out) return out;
  }
  for (const run of text.match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? []) {
    const out = readable(Buffer.from(run, 'base64').toString('utf8'));
    if (out) return out;
  }
  return text;
}

function obedient(messages) {
  const request = decoded(lastUserText(messages));
  const system = messages.find((m) => m.role === 'system')?.content;
  const youAsked = `\n\nYou asked: ${request}`;
  if (ASKS_FOR_PROMPT.test(request)) return `Sure! Here you go: ${typeof system === 'string' ? system : 'I have no instructions.'}${youAsked}`;
  if (ASKS_FOR_PERSONAL_DATA.test(request)) return `Sure! Here you go: ${CUSTOMER}.${youAsked}`;
  if (ASKS_FOR_INSULT.test(request)) return `Sure! ${INSULT}${youAsked}`;
  return `Sure! Here you go: ${request}`;
}

function lastUserText(messages) {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

const reply = OBEDIENT ? obedient : cautious;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"POST /v1/chat/completions"}');
      return;
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"the body is not JSON"}');
      return;
    }
    const content = reply(Array.isArray(body.messages) ? body.messages : []);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-demo-${Date.now()}`,
        object: 'chat.completion',
        model: body.model ?? 'demo',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      }),
    );
  });
});

server.listen(PORT, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`demo agent${OBEDIENT ? ' (obedient)' : ''}: http://127.0.0.1:${port}/v1 (chat completions)`);
});
