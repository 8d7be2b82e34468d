import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { InvalidPayloadError } from '../../errors.ts';
import { FilesService } from '../../files/files-service.ts';
import { importFromUrl } from '../../files/import/import-from-url.ts';
import { parseQuery } from '../../query/parse-query.ts';
import type { ItemKey } from '../../services/items/items-service.ts';
import { assertWriteAllowed, maxLimit, runTool, type ToolContext } from '../tool-kit.ts';
import { confirmInput, itemInput, primaryKeyInput, queryInput } from '../tool-inputs.ts';

const filesInput = {
  action: z.enum(['read', 'import']).describe('read: list files or read their metadata; import: download files from URLs.'),
  query: queryInput.optional(),
  keys: z.array(primaryKeyInput).optional().describe('read: ids of the files.'),
  data: z
    .array(z.object({ url: z.string().describe('An http(s) URL the server may download from.'), file: itemInput.optional().describe('Metadata of the new file: title, description, folder, tags …') }))
    .optional()
    .describe('import: the files to download.'),
  confirm: confirmInput,
};

type FilesArgs = z.infer<z.ZodObject<typeof filesInput>>;

async function runFiles(tools: ToolContext, args: FilesArgs): Promise<unknown> {
  const files = new FilesService(tools.app, tools.accountability);
  const service = await files.items();
  const query = parseQuery(args.query ?? {}, { maxLimit: maxLimit(tools) });
  if (args.action === 'read') {
    if (args.keys) return service.readMany(args.keys, query);
    return (await service.readByQuery(query)).data;
  }
  assertWriteAllowed(tools, args.confirm);
  if (!args.data || args.data.length === 0) throw new InvalidPayloadError('"data" must list the files to import, each with a "url".', { field: 'data' });
  const keys: ItemKey[] = [];
  // One after the other: each import is a download the outbound guard checks on its own.
  for (const { url, file } of args.data) keys.push(await importFromUrl(tools.app, tools.accountability, url, file ?? {}));
  return service.readMany(keys, query);
}

/** The `files` tool: list and read file metadata, import files by URL through the outbound guard. */
export function registerFilesTool(server: McpServer, tools: ToolContext): void {
  server.registerTool(
    'files',
    {
      title: 'Files',
      description: 'Files the user may see. read: their metadata (title, type, size, folder …) by `keys` or `query`. import: downloads each `data[].url` into a new file with `data[].file` as its metadata; needs `"confirm": true` and MCP writes allowed on the server; the server only downloads from hosts it allows.',
      inputSchema: filesInput,
      annotations: { title: 'Tessera - Files', readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (args) => runTool(tools, () => runFiles(tools, args)),
  );
}
