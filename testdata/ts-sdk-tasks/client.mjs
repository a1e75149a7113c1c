// Drives server.mjs through `mcp-lint record`; argv[2] picks the scenario.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [scenario, out, lint] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: lint, args: ['record', '-o', out, '--', 'node', 'server.mjs', scenario] });
const client = new Client({ name: 'task-demo-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
await client.connect(transport);
await client.listTools();
const sleep = ms => new Promise(r => setTimeout(r, ms));
if (scenario === 'complete') {
  const stream = client.experimental.tasks.callToolStream({ name: 'count', arguments: { n: 3 } }, CallToolResultSchema,
    { task: { ttl: 60000 }, onprogress: p => console.error('progress', p.progress) });
  for await (const m of stream) console.error(m.type, JSON.stringify(m.task ?? m.result ?? m.error?.message));
} else if (scenario === 'cancel') {
  const stream = client.experimental.tasks.callToolStream({ name: 'wait_forever', arguments: {} }, CallToolResultSchema, { task: { ttl: 60000 } });
  for await (const m of stream) {
    console.error(m.type, JSON.stringify(m.task ?? m.result ?? m.error?.message));
    if (m.type === 'taskCreated') { await sleep(250); console.error('cancel', JSON.stringify(await client.experimental.tasks.cancelTask(m.task.taskId))); }
  }
} else if (scenario === 'input' || scenario === 'race') {
  const stream = client.experimental.tasks.callToolStream({ name: 'confirm_delete', arguments: { filename: 'notes.txt' } }, CallToolResultSchema, { task: { ttl: 60000 } });
  for await (const m of stream) console.error(m.type, JSON.stringify(m.task ?? m.result ?? m.error?.message));
}
await client.close();
