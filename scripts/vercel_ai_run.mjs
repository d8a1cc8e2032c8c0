// The Vercel AI SDK's own OpenTelemetry spans (`experimental_telemetry`) of the travel
// story, against the scripted OpenAI-compatible server of scripts/story_model.py, written
// as one OTLP JSON document (hex ids). Run by scripts/framework_run.py (which installs the
// packages with npm in a folder of their own and starts the server):
//
//     node vercel_ai_run.mjs BASE_URL OUT.json STORY_JSON generate|stream
//
// generate: generateText with tools (ai.generateText, ai.toolCall spans), then ai.embed of
// what was learned; stream: the same with streamText (ai.streamText).
import { writeFileSync } from 'node:fs';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embed, generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

const [baseURL, out, storyJson, mode] = process.argv.slice(2);
const story = JSON.parse(storyJson);

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);

const llm = createOpenAICompatible({ name: 'story', baseURL, apiKey: 'offline' });
const tools = {
  recall_memory: tool({
    description: "Search Lin's saved memories.",
    inputSchema: z.object({ query: z.string() }),
    execute: async () => JSON.stringify(story.memories),
  }),
  book_seat: tool({
    description: 'Book a seat on a flight.',
    inputSchema: z.object({ flight: z.string(), seat: z.string() }),
    execute: async () => JSON.stringify(story.booking),
  }),
  save_memory: tool({
    description: 'Save a memory about Lin.',
    inputSchema: z.object({ text: z.string() }),
    execute: async () => JSON.stringify(story.saved),
  }),
};
const telemetry = {
  isEnabled: true, functionId: 'travel-agent',
  metadata: { sessionId: 'lin-trip', userId: 'lin' },
};
const call = {
  model: llm.chatModel('gpt-4o-mini'), system: story.instructions, prompt: story.question,
  tools, stopWhen: stepCountIs(6), experimental_telemetry: telemetry,
};
if (mode === 'stream') {
  const result = streamText(call);
  console.log(await result.text);
} else {
  const result = await generateText(call);
  console.log(result.text);
}
await embed({
  model: llm.embeddingModel('text-embedding-3-small'), value: story.learned,
  experimental_telemetry: telemetry,
});

function anyValue(v) {
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { stringValue: String(v) };
}
const attrs = (a) => Object.entries(a || {}).map(([key, value]) => ({ key, value: anyValue(value) }));
const nanos = ([s, ns]) => (BigInt(s) * 1000000000n + BigInt(ns)).toString();
const spans = exporter.getFinishedSpans()
  .sort((x, y) => (nanos(x.startTime) < nanos(y.startTime) ? -1 : 1))
  .map((s) => ({
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    ...(s.parentSpanContext ? { parentSpanId: s.parentSpanContext.spanId } : {}),
    name: s.name,
    kind: s.kind + 1,
    startTimeUnixNano: nanos(s.startTime),
    endTimeUnixNano: nanos(s.endTime),
    attributes: attrs(s.attributes),
    events: s.events.map((e) => ({ name: e.name, timeUnixNano: nanos(e.time), attributes: attrs(e.attributes) })),
    status: { code: s.status.code },
  }));
const doc = { resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'travel-agent' }) },
  scopeSpans: [{ scope: { name: 'ai' }, spans }] }] };
writeFileSync(out, JSON.stringify(doc, null, 1) + '\n');
