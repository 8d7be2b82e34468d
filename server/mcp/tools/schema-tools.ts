import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { InvalidPayloadError } from '../../errors.ts';
import { describeCollections, listSchema, schemaServices } from '../schema-overview.ts';
import { runTool, type ToolContext } from '../tool-kit.ts';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const readAction = z.literal('read').describe('Only "read": schema changes are not made through MCP.');

/**
 * The schema tools, read-only and as the caller (what it may not see is absent): `schema` (Directus's
 * overview: collection names without `keys`, field summaries with them), and `collections`, `fields`,
 * `relations` in the REST shapes of /collections, /fields and /relations.
 */
export function registerSchemaTools(server: McpServer, tools: ToolContext): void {
  server.registerTool(
    'schema',
    {
      title: 'Schema',
      description: 'The data model the user can see. Without `keys`: the names of the collections (and folders) with their notes. With `keys`: for each of those collections, its fields with type, primary key, required, notes, choices and relations. Start here before reading or writing items.',
      inputSchema: { keys: z.array(z.string()).optional().describe('Collections to describe in detail; omit for the list of collections.') },
      annotations: { title: 'Tessera - Schema', ...READ_ONLY },
    },
    ({ keys }) => runTool(tools, () => (keys && keys.length > 0 ? describeCollections(tools, keys) : listSchema(tools))),
  );

  server.registerTool(
    'collections',
    {
      title: 'Collections',
      description: 'Reads collections (as GET /collections): all the user can see, or those named in `keys`.',
      inputSchema: { action: readAction, keys: z.array(z.string()).optional().describe('Collection names; omit for all.') },
      annotations: { title: 'Tessera - Collections', ...READ_ONLY },
    },
    ({ keys }) =>
      runTool(tools, async () => {
        const { collections } = schemaServices(tools);
        return keys ? Promise.all(keys.map((key) => collections.readOne(key))) : collections.readAll();
      }),
  );

  server.registerTool(
    'fields',
    {
      title: 'Fields',
      description: 'Reads fields (as GET /fields): all the user can see, those of `collection`, or one `field` of it.',
      inputSchema: { action: readAction, collection: z.string().optional(), field: z.string().optional() },
      annotations: { title: 'Tessera - Fields', ...READ_ONLY },
    },
    ({ collection, field }) =>
      runTool(tools, async () => {
        const { fields } = schemaServices(tools);
        if (field !== undefined && collection === undefined) throw new InvalidPayloadError('"field" needs "collection".', { field: 'collection' });
        if (collection === undefined) return fields.readAll();
        return field === undefined ? fields.readAllInCollection(collection) : fields.readOne(collection, field);
      }),
  );

  server.registerTool(
    'relations',
    {
      title: 'Relations',
      description: 'Reads relations (as GET /relations): all the user can see, those of `collection`, or the one of `collection` and `field`.',
      inputSchema: { action: readAction, collection: z.string().optional(), field: z.string().optional() },
      annotations: { title: 'Tessera - Relations', ...READ_ONLY },
    },
    ({ collection, field }) =>
      runTool(tools, async () => {
        const { relations } = schemaServices(tools);
        if (field !== undefined && collection === undefined) throw new InvalidPayloadError('"field" needs "collection".', { field: 'collection' });
        if (collection === undefined) return relations.readAll();
        return field === undefined ? relations.readAllInCollection(collection) : relations.readOne(collection, field);
      }),
  );
}
