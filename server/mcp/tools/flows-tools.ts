import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ItemsService } from '../../services/items/items-service.ts';
import { parseQuery } from '../../query/parse-query.ts';
import { assertWriteAllowed, itemsContext, maxLimit, runTool, type ToolContext } from '../tool-kit.ts';
import { confirmInput, itemInput, primaryKeyInput, queryInput } from '../tool-inputs.ts';

const FLOW_FIELDS = ['id', 'name', 'description', 'status', 'trigger', 'options'];

/** The `flows` tool (list the flows the user may read) and `trigger-flow` (run a manual flow), Directus's names. */
export function registerFlowsTools(server: McpServer, tools: ToolContext): void {
  server.registerTool(
    'flows',
    {
      title: 'Flows',
      description: 'Lists the flows the user may read (as GET /flows): id, name, description, status, trigger and options. Manual flows (trigger "manual", status "active") can be run with trigger-flow on items of the collections in their options.collections.',
      inputSchema: { action: z.literal('read').describe('Only "read": flows are not changed through MCP.'), query: queryInput.optional() },
      annotations: { title: 'Tessera - Flows', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    ({ query }) =>
      runTool(tools, async () => {
        const parsed = parseQuery(query ?? {}, { maxLimit: maxLimit(tools) });
        return (await new ItemsService('tessera_flows', await itemsContext(tools)).readByQuery({ fields: FLOW_FIELDS, ...parsed })).data;
      }),
  );

  server.registerTool(
    'trigger-flow',
    {
      title: 'Trigger flow',
      description: 'Runs an active manual flow on items of one of its collections, as POST /flows/trigger/:id does (the run goes on in the background). `data` adds values the flow reads from $trigger. Needs `"confirm": true` and MCP writes allowed on the server: a flow may change data.',
      inputSchema: {
        id: z.string().describe('The flow id.'),
        collection: z.string().describe('A collection listed in the flow\'s options.collections.'),
        keys: z.array(primaryKeyInput).optional().describe('The items to run the flow on.'),
        data: itemInput.optional().describe('More values for $trigger.'),
        confirm: confirmInput,
      },
      annotations: { title: 'Tessera - Trigger flow', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    ({ id, collection, keys, data, confirm }) =>
      runTool(tools, async () => {
        assertWriteAllowed(tools, confirm);
        // The flow engine loads with the first flow run, not with /mcp (docs/performance.md, "Start and memory").
        const { startManualFlowById } = await import('../../flows/manual-trigger.ts');
        await startManualFlowById(tools.app, id, tools.accountability, { ...data, collection, ...(keys ? { keys } : {}) });
        return { started: true, flow: id };
      }),
  );
}
