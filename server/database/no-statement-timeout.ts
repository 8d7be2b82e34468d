/**
 * DB_STATEMENT_TIMEOUT guards requests; a migration or schema apply may rewrite a large table or wait for
 * the migrate lock, so its transaction lifts the limit. SET LOCAL ends with the transaction, so the pooled
 * connection keeps its own value afterwards.
 */
export const NO_STATEMENT_TIMEOUT = 'set local statement_timeout = 0';
