import { AsyncLocalStorage } from 'node:async_hooks';

/** What an answer depended on besides the question and the caller's role: the caller's own id, the clock. */
export interface AnswerDependence {
  user: boolean;
  now: boolean;
}

const current = new AsyncLocalStorage<AnswerDependence>();

/**
 * Runs `work` noting whether its answer came to depend on who calls or on the time (the response cache keys
 * such an answer by user, or does not keep it). Reads note it wherever they resolve `$CURRENT_USER` or `$NOW`
 * — in the query compiler, whatever built the query (a URL, a panel's options, a service) — and routes whose
 * answer is about the caller note it themselves (`answerDependsOnCaller`).
 */
export function recordAnswerDependence<T>(dependence: AnswerDependence, work: () => Promise<T>): Promise<T> {
  return current.run(dependence, work);
}

/** Called by code whose answer differs from one caller to another of the same role (e.g. "everyone but me"). */
export function answerDependsOnCaller(): void {
  const dependence = current.getStore();
  if (dependence) dependence.user = true;
}

/** Called by code whose answer changes with the time alone (`$NOW` resolved). */
export function answerDependsOnClock(): void {
  const dependence = current.getStore();
  if (dependence) dependence.now = true;
}

/**
 * What synchronous `work` notes, kept to be told again (`noteAgain`) each time its result is reused without
 * running it: a compiled read found compiled still depends on the caller as when it was compiled.
 */
export function noteWhile<T>(work: () => T): { result: T; noted: AnswerDependence } {
  const noted: AnswerDependence = { user: false, now: false };
  return { result: current.run(noted, work), noted };
}

/** Notes for the running read what an earlier `noteWhile` found. */
export function noteAgain(noted: AnswerDependence): void {
  if (!noted.user && !noted.now) return;
  const dependence = current.getStore();
  if (!dependence) return;
  if (noted.user) dependence.user = true;
  if (noted.now) dependence.now = true;
}

/**
 * Notes the dynamic values a parsed query names, when a response-cache read is recording (otherwise costs
 * nothing). The query is decoded already, and JSON text never escapes `$`, so its JSON holds each variable
 * as written.
 */
export function noteDynamicValues(parsed: unknown): void {
  const dependence = current.getStore();
  if (!dependence || (dependence.user && dependence.now)) return;
  const text = JSON.stringify(parsed) ?? '';
  if (text.includes('$CURRENT_USER')) dependence.user = true;
  if (text.includes('$NOW')) dependence.now = true;
}

/**
 * The dynamic values named anywhere in a decoded value: every string member and key is looked at, and a
 * string that is itself JSON (`filter={"a":{"_eq":"\u0024NOW"}}`, bracket values) is decoded and looked into,
 * so no escape can hide a variable. Over-approximates: a literal text containing `$CURRENT_USER` counts too.
 */
export function dynamicValuesIn(value: unknown): AnswerDependence {
  const found: AnswerDependence = { user: false, now: false };
  const visit = (item: unknown, depth: number): void => {
    if (depth > 64) {
      found.user = found.now = true;
      return;
    }
    if (typeof item === 'string') {
      if (item.includes('$CURRENT_USER')) found.user = true;
      if (item.includes('$NOW')) found.now = true;
      const trimmed = item.trim();
      if (/^[[{"]/.test(trimmed)) {
        try {
          visit(JSON.parse(trimmed), depth + 1);
        } catch {
          // Not JSON: looked at as text above.
        }
      }
    } else if (Array.isArray(item)) {
      for (const element of item) visit(element, depth + 1);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, member] of Object.entries(item)) {
        visit(key, depth + 1);
        visit(member, depth + 1);
      }
    }
  };
  visit(value, 0);
  return found;
}
