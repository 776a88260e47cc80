// A scripted Gemini API on 127.0.0.1 for capturing a real gemini-cli
// headless stream (see README.md here). It answers gemini-cli's model
// router with a fixed complexity score, and its main requests from SCRIPT:
// one response per model turn (the turn is the number of model entries
// already in the request's history), streamed as several SSE chunks so
// the text arrives as deltas, with the model the URL names as its
// modelVersion. Any other request is logged and refused.
// Usage: node fake-gemini.mjs PORTFILE   (writes the port it listens on)
import http from 'node:http';
import fs from 'node:fs';


// Each turn: text pieces (one SSE chunk each), then function calls, then
// the usage the last chunk reports.
const SCRIPT = [
  {
    text: ["I'll read the ", 'figures first.'],
    calls: [
      ['update_topic', {
        title: 'Researching BMW data',
        summary: 'Starting from the figures in bmw.csv: the 0-60 mph time of each model, as published by BMW.',
        strategic_intent: 'Read the 0-60 figures from bmw.csv.',
      }],
      ['read_file', { file_path: 'bmw.csv' }],
    ],
    usage: { promptTokenCount: 8210, candidatesTokenCount: 96, totalTokenCount: 8306, cachedContentTokenCount: 0 },
  },
  {
    text: ['The file has seven models with their times.'],
    calls: [
      ['update_topic', {
        title: 'Ranking the cars',
        summary: 'The research phase found seven models in bmw.csv. Now sorting them by their 0-60 time and keeping the quickest three.',
        strategic_intent: 'Sort by 0-60 time and keep the first three.',
      }],
    ],
    usage: { promptTokenCount: 8502, candidatesTokenCount: 71, totalTokenCount: 8573, cachedContentTokenCount: 8192 },
  },
  {
    text: [
      'Here are the quickest three:\n\n',
      '1. M5 CS: 2.9 s\n2. M8 Competition Coupe: 3.0 s\n',
      '3. M3 Competition xDrive: 3.4 s\n',
    ],
    calls: [],
    usage: { promptTokenCount: 8611, candidatesTokenCount: 38, totalTokenCount: 8649, cachedContentTokenCount: 8448 },
  },
];

function sse(res, obj) {
  res.write('data: ' + JSON.stringify(obj) + '\r\n\r\n');
}

function turn(res, step, model) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (parts, extra = {}) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
    modelVersion: model,
  });
  for (const t of step.text) sse(res, chunk([{ text: t }]));
  const calls = step.calls.map(([name, args]) => ({ functionCall: { name, args } }));
  sse(res, { ...chunk(calls.length ? calls : [{ text: '' }], { finishReason: 'STOP' }), usageMetadata: step.usage });
  res.end();
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let j = {};
    try { j = JSON.parse(body || '{}'); } catch { /* logged below */ }
    const schema = JSON.stringify(j.generationConfig?.responseJsonSchema ?? '');
    const model = /\/models\/([^:/]+):/.exec(req.url)?.[1] ?? 'unknown';
    console.error(`${req.method} ${req.url}`);
    if (req.url.includes(':generateContent') && schema.includes('complexity_score')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const answer = { complexity_reasoning: 'A short lookup in one file.', complexity_score: 20 };
      res.end(JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text: JSON.stringify(answer) }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1240, candidatesTokenCount: 24, totalTokenCount: 1264 },
        modelVersion: model,
      }));
      return;
    }
    if (req.url.includes(':streamGenerateContent')) {
      const n = (j.contents ?? []).filter((c) => c.role === 'model').length;
      if (n < SCRIPT.length) return turn(res, SCRIPT[n], model);
    }
    console.error('  not scripted: refused');
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 500, message: 'not scripted', status: 'INTERNAL' } }));
  });
});

server.listen(0, '127.0.0.1', () => {
  fs.writeFileSync(process.argv[2], String(server.address().port));
});
