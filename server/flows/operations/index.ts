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

/** Every operation type a flow may use, by its Directus name. */
export const OPERATIONS: Record<string, OperationHandler> = {
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
