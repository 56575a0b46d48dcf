import { judgeKill, requestTable, statusLabel, summarize, type KillVerdict, type PhaseSummary } from './analyze';
import type { DatabaseCheck } from './checks';
import { classifyErrors, type Logged, type UpstreamErrors } from './nginx';
import type { Outcome } from './traffic';

/** Everything one run measured, judged: what is printed and written to the results file. */
export interface Judged {
  rolling: PhaseSummary;
  crash: PhaseSummary;
  kill: KillVerdict;
  rollingErrors: UpstreamErrors;
  crashErrors: UpstreamErrors;
  problems: string[];
}

function writeLines(title: string, check: DatabaseCheck): string[] {
  const cell = (v: number | string, n: number) => String(v).padStart(n);
  return [
    title,
    'kind    sent  acknowledged   rows   lost  failed-but-stored  unexplained',
    ...check.tallies.map(
      (t) =>
        `${t.kind.padEnd(4)}${cell(t.sent, 8)}${cell(t.acknowledged, 14)}${cell(t.rows, 7)}${cell(t.lost, 7)}${cell(t.failedButStored, 19)}${cell(t.unexplained, 13)}`,
    ),
    check.counterMismatches === 0
      ? 'counters: every likes, dislikes, total_joins, views and month_votes counter equals its rows'
      : `counters: ${check.counterMismatches} differ from their rows:\n  ${check.counterProblems.join('\n  ')}`,
  ];
}

function writeProblems(stretch: string, check: DatabaseCheck, failuresAllowed: boolean): string[] {
  const problems: string[] = [];
  for (const t of check.tallies) {
    if (t.lost > 0) problems.push(`${stretch}: ${t.lost} acknowledged ${t.kind}s have no row`);
    if (t.unexplained > 0) problems.push(`${stretch}: ${t.unexplained} ${t.kind} rows the load did not send, or twice`);
    if (t.rows !== t.acknowledged + t.failedButStored)
      problems.push(`${stretch}: ${t.rows} ${t.kind} rows, not acknowledged ${t.acknowledged} + failed but stored ${t.failedButStored}`);
    if (!failuresAllowed && t.acknowledged !== t.sent) problems.push(`${stretch}: ${t.sent - t.acknowledged} ${t.kind}s not acknowledged`);
  }
  if (check.counterMismatches > 0) problems.push(`${stretch}: ${check.counterMismatches} counters differ from their rows`);
  return problems;
}

const upstreamLine = (stretch: string, e: UpstreamErrors) =>
  `${stretch}, nginx's error log: ${e.refused} refused connections (passed on, nothing sent), ${e.lostUnderRequest} connections lost under a sent request, ${e.noLiveUpstreams} times no live instance${e.other ? `, ${e.other} other errors` : ''}`;

/**
 * Judges the run: the rolling restart must have no failed request, no connection lost under a
 * request nginx had sent (had it been a POST it would have failed: zero failures by luck is not
 * enough) and no moment without a live instance; every failure of the kill must have been in
 * flight on the killed instance; no acknowledged write may be missing, no row unexplained, and
 * every counter must equal its rows. Prints the tables and answers the verdicts with the problems.
 */
export function judgeAndPrint(input: {
  rolling: { outcomes: Outcome[]; errorLog: string; signals: number[] };
  crash: { outcomes: Outcome[]; errorLog: string; signalled: number; gone: number };
  killed: { name: string; address: string };
  names: Map<string, string>;
  log: Map<number, Logged>;
  rollingCheck: DatabaseCheck;
  finalCheck: DatabaseCheck;
}): Judged {
  const { log, names, killed } = input;
  const rolling = summarize('rolling restart', input.rolling.outcomes, log);
  const crash = summarize('kill -9', input.crash.outcomes, log);
  const kill = judgeKill(input.crash.outcomes, log, { address: killed.address, signalled: input.crash.signalled, gone: input.crash.gone });
  const rollingErrors = classifyErrors(input.rolling.errorLog);
  const crashErrors = classifyErrors(input.crash.errorLog);

  const lines = [`Requests through nginx by kind and status:`, requestTable([rolling, crash]), ''];
  for (const s of [rolling, crash]) {
    const served = [...s.servedBy].map(([address, n]) => `${names.get(address) ?? address} ${n}`).join(', ');
    lines.push(
      `${s.name}: ${s.total} requests, ${s.failures.length} failed; answered by ${served}; ${s.passedOn} passed on by nginx to the other instance`,
    );
  }
  lines.push(upstreamLine('rolling restart', rollingErrors), upstreamLine('kill -9', crashErrors));
  const inFlight = kill.inFlightOnKilled.GET + kill.inFlightOnKilled.POST;
  lines.push(
    `kill -9: in flight on ${killed.name} at the signal: ${kill.inFlightOnKilled.GET} GET, ${kill.inFlightOnKilled.POST} POST; ` +
      `${kill.getsPassedOn} GETs passed on to the other instance and answered; ${kill.failed} failed, ` +
      `${kill.failed - kill.unexplained.length} of them in flight on ${killed.name}; ${kill.answeredAfter} answered after the kill`,
    '',
    ...writeLines('Writes after the rolling restart (acknowledged = answered 200):', input.rollingCheck),
    '',
    ...writeLines('Writes after the kill -9 (the whole run):', input.finalCheck),
  );
  console.log(lines.join('\n'));

  const problems: string[] = [];
  const cutOff = rollingErrors.lostUnderRequest + rollingErrors.noLiveUpstreams + rollingErrors.other;
  if (cutOff > 0)
    problems.push(
      `rolling restart: nginx lost ${rollingErrors.lostUnderRequest} upstream connections under a sent request and had no live instance ${rollingErrors.noLiveUpstreams} times:\n    ${rollingErrors.samples.join('\n    ')}`,
    );
  if (rolling.failures.length > 0) problems.push(`rolling restart: ${rolling.failures.length} requests failed`);
  for (const f of rolling.failures.slice(0, 20)) {
    const entry = log.get(f.id);
    const signal = input.rolling.signals.filter((at) => at < f.end).at(-1);
    const since = signal === undefined ? 'before the first SIGTERM' : `${((f.end - signal) / 1000).toFixed(2)} s after the last SIGTERM`;
    problems.push(
      `  #${f.id} ${f.method} ${f.path}: ${statusLabel(f)}, ${since} (nginx: ${entry ? `${entry.status} via ${entry.upstreams.join(', ')}` : 'no line'})`,
    );
  }
  problems.push(...writeProblems('rolling restart', input.rollingCheck, false), ...writeProblems('kill -9', input.finalCheck, true));
  for (const u of kill.unexplained.slice(0, 10))
    problems.push(`kill -9: #${u.outcome.id} ${u.outcome.method} ${u.outcome.path} failed (${statusLabel(u.outcome)}) but ${u.why}`);
  if (kill.failed > inFlight)
    problems.push(`kill -9: ${kill.failed} failures, more than the ${inFlight} requests in flight on ${killed.name}`);
  if (kill.answeredAfter === 0) problems.push('kill -9: no request was answered after the kill');
  return { rolling, crash, kill, rollingErrors, crashErrors, problems };
}
