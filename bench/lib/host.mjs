// What the benchmarks read off the host: CPU a process has used (to report CPU per request,
// which stays comparable when the machine is shared) and the load average they ran at.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** CPU ms (user + system, every thread) the process has used so far, from /proc (Linux); NaN elsewhere. */
export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The 1, 5 and 15 minute load averages, two decimals each. */
export const loadAverage = () => loadavg().map((l) => Math.round(l * 100) / 100);

/** The same, as printed: "1.23 0.98 0.75". */
export const loadAverageText = () =>
  loadAverage()
    .map((l) => l.toFixed(2))
    .join(' ');
