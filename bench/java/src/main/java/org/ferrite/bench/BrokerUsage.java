package org.ferrite.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the broker process used over an interval, read from /proc: its CPU time (utime + stime of
 * /proc/PID/stat, which includes the threads that have exited) and its context switches (the sum of
 * voluntary_ctxt_switches + nonvoluntary_ctxt_switches over /proc/PID/task/*&#47;status).
 *
 * <p>Context switches are kept per thread: a thread's switches over the interval are its count at
 * the end less its count at the start (0 for a thread started within the interval). A thread that
 * exits within the interval is no longer in /proc, so its switches of the interval are lost; {@link
 * Delta#exitedThreads} says how many threads that was.
 */
final class BrokerUsage {
    private static final long TICKS_PER_SECOND = ticksPerSecond();

    final long cpuTicks;
    final Map<String, Long> switchesByThread;

    private BrokerUsage(long cpuTicks, Map<String, Long> switchesByThread) {
        this.cpuTicks = cpuTicks;
        this.switchesByThread = switchesByThread;
    }

    /** The usage of process {@code pid} now, or null when /proc cannot say (no such process). */
    static BrokerUsage of(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The command name may hold spaces and parentheses: fields count from the last ')'.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            // Fields 14 (utime) and 15 (stime) of proc(5); fields[0] here is field 3 (state).
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            Map<String, Long> switches = new HashMap<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    Long count = switches(task.resolve("status"));
                    if (count != null) {
                        switches.put(task.getFileName().toString(), count);
                    }
                }
            }
            return new BrokerUsage(ticks, switches);
        } catch (IOException | RuntimeException error) {
            return null;
        }
    }

    /** voluntary + nonvoluntary context switches of one task; null if it has exited. */
    private static Long switches(Path status) {
        try {
            long sum = 0;
            List<String> lines = Files.readAllLines(status);
            for (String line : lines) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return sum;
        } catch (IOException | RuntimeException error) {
            return null;
        }
    }

    /** From {@code start} to this snapshot. */
    Delta since(BrokerUsage start) {
        long switches = 0;
        for (Map.Entry<String, Long> thread : switchesByThread.entrySet()) {
            switches += thread.getValue() - start.switchesByThread.getOrDefault(thread.getKey(), 0L);
        }
        int exited = 0;
        for (String thread : start.switchesByThread.keySet()) {
            if (!switchesByThread.containsKey(thread)) {
                exited++;
            }
        }
        return new Delta((cpuTicks - start.cpuTicks) / (double) TICKS_PER_SECOND, switches, exited);
    }

    /** CPU seconds and context switches over an interval, and the threads that exited within it. */
    record Delta(double cpuSeconds, long contextSwitches, int exitedThreads) {}

    /** USER_HZ, the unit of /proc/PID/stat's times (getconf CLK_TCK; 100 on Linux if it fails). */
    private static long ticksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes()).trim();
            if (getconf.waitFor() == 0) {
                return Long.parseLong(out);
            }
        } catch (IOException | RuntimeException | InterruptedException error) {
            // fall through
        }
        return 100;
    }
}
