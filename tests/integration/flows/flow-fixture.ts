import type { TestApp } from '../../helpers/test-app.ts';

/** One operation of a chain; resolve/reject name other operations by key. */
export interface OperationSpec {
  key: string;
  type: string;
  options?: Record<string, unknown>;
  resolve?: string;
  reject?: string;
}

/**
 * Creates a flow through /flows and its operations through /operations (leaves first, so resolve and
 * reject can point at them), then links the first operation. Returns the flow id and operation ids by key.
 */
export async function createFlow(t: TestApp, token: string, flow: Record<string, unknown>, operations: OperationSpec[]): Promise<{ id: string; ops: Record<string, string> }> {
  const auth = { Authorization: `Bearer ${token}` };
  const id = (await t.request.post('/flows').set(auth).send({ status: 'active', ...flow }).expect(200)).body.data.id as string;
  const ops: Record<string, string> = {};
  const pending = [...operations];
  while (pending.length > 0) {
    const index = pending.findIndex((op) => (!op.resolve || ops[op.resolve]) && (!op.reject || ops[op.reject]));
    if (index < 0) throw new Error('operations form a cycle');
    const [op] = pending.splice(index, 1);
    const created = await t.request
      .post('/operations')
      .set(auth)
      .send({ key: op!.key, type: op!.type, options: op!.options ?? {}, position_x: 1, position_y: 1, flow: id, resolve: op!.resolve ? ops[op!.resolve] : null, reject: op!.reject ? ops[op!.reject] : null })
      .expect(200);
    ops[op!.key] = created.body.data.id;
  }
  if (operations.length > 0) await t.request.patch(`/flows/${id}`).set(auth).send({ operation: ops[operations[0]!.key] }).expect(200);
  return { id, ops };
}
