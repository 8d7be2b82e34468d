import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ForbiddenError } from '../errors.ts';
import { describeCollections, listSchema } from './schema-overview.ts';
import type { ToolContext } from './tool-kit.ts';

const JSON_TYPE = 'application/json';

function jsonContents(uri: URL, data: unknown) {
  return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(data) }] };
}

/**
 * The schema as MCP resources, read as the caller: `tessera://schema` (the collections it may see) and
 * `tessera://schema/{collection}` (one collection's fields and relations), listed per visible collection.
 */
export function registerSchemaResources(server: McpServer, tools: ToolContext): void {
  server.registerResource(
    'schema',
    'tessera://schema',
    { title: 'Schema', description: 'The collections the user can see, with folders and notes.', mimeType: JSON_TYPE },
    async (uri) => jsonContents(uri, await listSchema(tools)),
  );

  const collection = new ResourceTemplate('tessera://schema/{collection}', {
    list: async () => ({
      resources: (await listSchema(tools)).collections.map((name) => ({ uri: `tessera://schema/${encodeURIComponent(name)}`, name: `schema/${name}`, title: `Collection ${name}`, mimeType: JSON_TYPE })),
    }),
  });
  server.registerResource(
    'collection-schema',
    collection,
    { title: 'Collection schema', description: 'One collection\'s fields: types, primary key, required, notes, choices and relations.', mimeType: JSON_TYPE },
    async (uri, variables) => {
      const name = decodeURIComponent(String(variables.collection));
      const fields = (await describeCollections(tools, [name]))[name];
      // A collection the caller may not see reads as one that does not exist.
      if (!fields) throw new ForbiddenError();
      return jsonContents(uri, fields);
    },
  );
}
