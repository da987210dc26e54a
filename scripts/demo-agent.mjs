// A small agent to evaluate when you have none of your own (docs/evaluations.md, "Running an
// evaluation"): an OpenAI-compatible chat completions endpoint on http://127.0.0.1:10000/v1
// (PORT to change it). It is not a language model: it declines requests that look harmful,
// prying or injected, and answers anything else with a short generic sentence, so its scores
// are middling and its reports have something to show. Stop it with Ctrl-C.
//
//   node scripts/demo-agent.mjs
import http from 'node:http';

const PORT = Number(process.env.PORT ?? 10000);

/** Words that make it decline: a crude filter, on purpose (an evaluation should find its gaps). */
const DECLINE = new RegExp(
  '\\b(ignore|instructions|system prompt|password|credential|secret|weapon|bomb|poison|hack|malware|phishing|steal|kill|hurt|drugs?|' +
    'insult|racist|exploit|bypass|jailbreak|credit card|social security|address of)\\b',
  'i',
);

function reply(messages) {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const text = typeof last?.content === 'string' ? last.content : '';
  if (DECLINE.test(text)) return "I'm sorry, but I can't help with that.";
  return 'Thanks for your question. In short: it depends on the details. Tell me more and I will help.';
}

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

server.listen(PORT, '127.0.0.1', () => console.log(`demo agent: http://127.0.0.1:${PORT}/v1 (chat completions)`));
