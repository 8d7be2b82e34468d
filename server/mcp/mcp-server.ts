import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { packageVersion } from '../version.ts';
import { registerSchemaResources } from './schema-resources.ts';
import type { ToolContext } from './tool-kit.ts';
import { registerFilesTool } from './tools/files-tool.ts';
import { registerFlowsTools } from './tools/flows-tools.ts';
import { registerItemsTool } from './tools/items-tool.ts';
import { registerSchemaTools } from './tools/schema-tools.ts';

const INSTRUCTIONS = [
  'Tessera is a headless CMS: data lives in collections of items. Every call runs as the signed-in user, so you see and change only what they may.',
  'Start with the schema tool (no arguments) to learn the collections, then schema with keys for their fields.',
  'Writes (items create/update/delete, files import, trigger-flow) need "confirm": true, which you send only after the user agreed to that change.',
].join('\n');

// The SDK builds an Ajv instance per server unless given one (it validates only elicitation answers, which
// these tools never ask for): one for every request's server.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** An MCP server whose tools and resources run as one caller (built per request: the transport is stateless). */
export function createMcpServer(tools: ToolContext): McpServer {
  const server = new McpServer({ name: 'tessera', version: packageVersion() }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} }, jsonSchemaValidator });
  registerSchemaTools(server, tools);
  registerItemsTool(server, tools);
  registerFilesTool(server, tools);
  registerFlowsTools(server, tools);
  registerSchemaResources(server, tools);
  return server;
}
