import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of one process in bytes (VmRSS of /proc/PID/status), 0 once it is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so split after its closing parenthesis.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** RSS of a process and every descendant (a server that forks workers is measured whole). */
export function treeRssBytes(pid: number): number {
  let total = rssBytes(pid);
  for (const child of childrenOf(pid)) total += treeRssBytes(child);
  return total;
}

export type RssSampler = { stop(): { peak: number; samples: number[] } };

/** Samples the process tree's RSS every `everyMs` until stopped. */
export function sampleRss(pid: number, everyMs = 50): RssSampler {
  const samples = [treeRssBytes(pid)];
  const timer = setInterval(() => samples.push(treeRssBytes(pid)), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push(treeRssBytes(pid));
      return { peak: Math.max(...samples), samples };
    },
  };
}

/** CPU time (user + system) a process has used so far, in seconds (/proc/PID/stat, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
