// A stdio MCP server with three task tools (TypeScript SDK, experimental tasks).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { z } from 'zod';

const taskStore = new InMemoryTaskStore();
const server = new McpServer({ name: 'task-demo', version: '1.0.0' }, {
  capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
  taskStore,
  taskMessageQueue: new InMemoryTaskMessageQueue(),
});
const sleep = ms => new Promise(r => setTimeout(r, ms));
const handlers = (work) => ({
  async createTask(args, extra) {
    const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl, pollInterval: 100 });
    work(args, extra, task).catch(e => console.error('task failed', e));
    return { task };
  },
  async getTask(_a, { taskId, taskStore }) { return await taskStore.getTask(taskId); },
  async getTaskResult(_a, { taskId, taskStore }) { return await taskStore.getTaskResult(taskId); },
});

server.experimental.tasks.registerToolTask('count', {
  description: 'Counts to n, with progress', inputSchema: { n: z.number() },
}, handlers(async ({ n }, extra, task) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= n; i++) {
    await sleep(80);
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
  }
  await taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `counted to ${n}` }] });
}));

server.experimental.tasks.registerToolTask('wait_forever', {
  description: 'Runs until cancelled', inputSchema: {},
}, handlers(async (_args, extra, task) => {
  for (;;) {
    await sleep(100);
    const t = await taskStore.getTask(task.taskId);
    if (!t || t.status === 'cancelled') return;
  }
}));

server.experimental.tasks.registerToolTask('confirm_delete', {
  description: 'Asks the user before deleting a file', inputSchema: { filename: z.string() },
}, handlers(async ({ filename }, extra, task) => {
  // The `race` scenario sets the status at once: it may beat the CreateTaskResult.
  if (process.argv[2] !== 'race') await sleep(150);
  await taskStore.updateTaskStatus(task.taskId, 'input_required');
  const answer = await server.server.elicitInput({
    mode: 'form', message: `Delete ${filename}?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  }, { relatedTask: { taskId: task.taskId } });
  await taskStore.updateTaskStatus(task.taskId, 'working');
  const yes = answer.action === 'accept' && answer.content?.confirm === true;
  await taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: yes ? `deleted ${filename}` : 'kept' }] });
}));

await server.connect(new StdioServerTransport());
