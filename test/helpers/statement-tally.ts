import { RawNode, SelectQueryNode, TableNode, ValueNode, type KyselyPlugin, type OperationNode } from 'kysely';
import type { DatabaseHandle } from '../../src/server/db/database';

/** Every statement the app sends through Kysely, and every transaction it opens. */
export interface Tally {
  statements: string[];
  transactions: number;
}

/**
 * The handle with its Kysely instance wrapped so that each statement and transaction is tallied:
 * what a request costs, counted rather than timed. The caller makes sure nothing else of the app
 * reads the database meanwhile (views written on demand, no game polls, caches settled).
 */
export function tallied(handle: DatabaseHandle, tally: Tally): DatabaseHandle {
  // A statement written as SQL shows its text (its values as `?`); a query built by the query
  // builder its kind and first table.
  const text = (node: OperationNode): string => {
    if (RawNode.is(node)) return node.sqlFragments.map((part, i) => part + (node.parameters[i] ? text(node.parameters[i]) : '')).join('');
    if (ValueNode.is(node)) return '?';
    const from = SelectQueryNode.is(node) ? node.from?.froms[0] : undefined;
    return from && TableNode.is(from) ? `${node.kind} ${from.table.identifier.name}` : node.kind;
  };
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      tally.statements.push(text(node).trim().slice(0, 60));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const db = handle.db.withPlugin(plugin);
  const counted = new Proxy(db, {
    get(target, key) {
      if (key === 'transaction' || key === 'connection') tally.transactions += 1;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...handle, db: counted };
}
