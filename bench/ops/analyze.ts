import type { Logged } from './nginx';
import { KINDS, ok, type Kind, type Outcome } from './traffic';

/** How one stretch of the load went, from the load generator's side and from nginx's log. */
export interface PhaseSummary {
  name: string;
  /** Answers per kind and status ("200", "502", "no answer: ECONNRESET"). */
  byKind: Map<Kind, Map<string, number>>;
  total: number;
  failures: Outcome[];
  /** Requests each instance answered in the end (nginx's last upstream), by address. */
  servedBy: Map<string, number>;
  /** Requests nginx sent to a second instance after the first failed (a refused connection, a GET cut off). */
  passedOn: number;
}

export const statusLabel = (o: Outcome) => (o.status > 0 ? String(o.status) : `no answer: ${o.error ?? 'unknown'}`);

export function byId(log: readonly Logged[]): Map<number, Logged> {
  const map = new Map<number, Logged>();
  for (const entry of log) if (entry.id !== undefined) map.set(entry.id, entry);
  return map;
}

export function summarize(name: string, outcomes: readonly Outcome[], logged: Map<number, Logged>): PhaseSummary {
  const byKind = new Map<Kind, Map<string, number>>(KINDS.map((k) => [k, new Map()]));
  const servedBy = new Map<string, number>();
  let passedOn = 0;
  for (const o of outcomes) {
    const counts = byKind.get(o.kind)!;
    const label = statusLabel(o);
    counts.set(label, (counts.get(label) ?? 0) + 1);
    const entry = logged.get(o.id);
    if (!entry) continue;
    const last = entry.upstreams.at(-1);
    if (last && ok(o)) servedBy.set(last, (servedBy.get(last) ?? 0) + 1);
    if (entry.upstreams.length > 1) passedOn++;
  }
  return { name, byKind, total: outcomes.length, failures: outcomes.filter((o) => !ok(o)), servedBy, passedOn };
}

/** What a `kill -9` cost: the requests that were on the killed instance, and whether every failure was one of them. */
export interface KillVerdict {
  /** Requests nginx had sent to the killed instance and not yet answered when it died, by method. */
  inFlightOnKilled: { GET: number; POST: number };
  /** Of those, GETs nginx passed on to the other instance (answered there). */
  getsPassedOn: number;
  failed: number;
  /** Failures that were not in flight on the killed instance at the kill: must be none. */
  unexplained: Array<{ outcome: Outcome; why: string }>;
  /** Requests answered after the kill (the other instance carrying on). */
  answeredAfter: number;
}

/**
 * Each failure of the kill's stretch against nginx's log: it must have been sent before the
 * process was gone, have ended after the signal, and have been on the killed instance.
 */
export function judgeKill(
  outcomes: readonly Outcome[],
  logged: Map<number, Logged>,
  killed: { address: string; signalled: number; gone: number },
): KillVerdict {
  // nginx's times are whole milliseconds: a failure is put down to the kill if it overlaps it within that.
  const overlaps = (start: number, end: number, slack = 0) => start <= killed.gone + slack && end >= killed.signalled - slack;
  const inFlight = { GET: 0, POST: 0 };
  let getsPassedOn = 0;
  for (const entry of logged.values()) {
    const i = entry.upstreams.indexOf(killed.address);
    if (i < 0 || !overlaps(entry.start, entry.end)) continue;
    if (entry.method === 'GET' || entry.method === 'POST') inFlight[entry.method]++;
    if (entry.method === 'GET' && i < entry.upstreams.length - 1) getsPassedOn++;
  }
  const unexplained: KillVerdict['unexplained'] = [];
  for (const o of outcomes) {
    if (ok(o)) continue;
    const entry = logged.get(o.id);
    if (!overlaps(o.start, o.end, 1)) unexplained.push({ outcome: o, why: 'it was not in flight at the kill' });
    else if (!entry) unexplained.push({ outcome: o, why: 'nginx has no line for it' });
    else if (!entry.upstreams.includes(killed.address))
      unexplained.push({ outcome: o, why: `nginx sent it to ${entry.upstreams.join(', ')}` });
  }
  return {
    inFlightOnKilled: inFlight,
    getsPassedOn,
    failed: outcomes.filter((o) => !ok(o)).length,
    unexplained,
    answeredAfter: outcomes.filter((o) => ok(o) && o.start > killed.gone).length,
  };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

/** Requests by phase, kind and status, as a plain table. */
export function requestTable(phases: readonly PhaseSummary[]): string {
  const labels = [...new Set(phases.flatMap((p) => [...p.byKind.values()].flatMap((m) => [...m.keys()])))].sort();
  const head = `${'stretch'.padEnd(18)}${'kind'.padEnd(6)}${pad('sent', 7)}${labels.map((l) => pad(l, Math.max(6, l.length + 2))).join('')}`;
  const lines = [head, '-'.repeat(head.length)];
  for (const p of phases) {
    for (const kind of KINDS) {
      const counts = p.byKind.get(kind)!;
      const sent = [...counts.values()].reduce((a, b) => a + b, 0);
      lines.push(
        `${p.name.padEnd(18)}${kind.padEnd(6)}${pad(sent, 7)}${labels.map((l) => pad(counts.get(l) ?? 0, Math.max(6, l.length + 2))).join('')}`,
      );
    }
  }
  return lines.join('\n');
}
