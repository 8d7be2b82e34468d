import type { OperationHandler } from '../flow-types.ts';
import { condition } from './condition.ts';
import { exec } from './exec.ts';
import { itemCreate } from './item-create.ts';
import { itemDelete } from './item-delete.ts';
import { itemRead } from './item-read.ts';
import { itemUpdate } from './item-update.ts';
import { jsonWebToken } from './json-web-token.ts';
import { log } from './log.ts';
import { mail } from './mail.ts';
import { notification } from './notification.ts';
import { request } from './request.ts';
import { sleep } from './sleep.ts';
import { transform } from './transform.ts';
import { trigger } from './trigger.ts';

/** The operation types Tessera ships, by their Directus names. */
const BUILT_IN: Record<string, OperationHandler> = {
  condition,
  'item-create': itemCreate,
  'item-read': itemRead,
  'item-update': itemUpdate,
  'item-delete': itemDelete,
  request,
  mail,
  notification,
  log,
  transform,
  trigger,
  sleep,
  'json-web-token': jsonWebToken,
  exec,
};

/** Every operation type a flow may use: the built-in ones and those extensions register. */
const registry = new Map<string, OperationHandler>(Object.entries(BUILT_IN));

/** The handler of an operation type, or undefined for a type nobody registered. */
export function operationHandler(type: string): OperationHandler | undefined {
  return registry.get(type);
}

/** The names of every registered operation type. */
export function operationTypes(): string[] {
  return [...registry.keys()];
}

/**
 * Adds an operation type (an operation extension) and returns how to remove it. A built-in type or one
 * already registered cannot be replaced.
 */
export function registerOperation(type: string, handler: OperationHandler): () => void {
  if (registry.has(type)) throw new Error(`An operation type "${type}" is already registered.`);
  registry.set(type, handler);
  return () => {
    if (registry.get(type) === handler) registry.delete(type);
  };
}
