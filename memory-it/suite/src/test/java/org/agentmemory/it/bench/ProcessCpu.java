package org.agentmemory.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * CPU time used by the processes of a benchmark on this (Linux) machine, read from {@code /proc}: the server
 * under test, PostgreSQL and the benchmark program itself. A benchmark takes a {@link Sample} before and after a
 * measured phase and reports, per unit of work, how many milliseconds of CPU each process spent: this shows
 * where the time of a throughput figure goes (on a machine with few cores, client, server and database share
 * them). The server's share is also split by what its threads do ({@link ThreadGroup}), from the names HotSpot
 * gives them (HotSpot keeps the first 15 characters in {@code /proc/<pid>/task/<tid>/stat}): on 2 cores the server's
 * CPU per turn of identical runs of the REST phase varied from 0.59 to 1.30 ms, and only the split says which part
 * moved. Where {@code /proc} is missing every figure is unknown and the report says "n/a".
 */
final class ProcessCpu {

    /** Clock ticks per second of {@code /proc/<pid>/stat} ({@code getconf CLK_TCK}; 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100.0;

    private final String serverMarker;

    /**
     * @param serverMarker a text only the server's command line contains, e.g. the directory it runs from
     *                     ({@code wildfly-pg})
     */
    ProcessCpu(String serverMarker) {
        this.serverMarker = serverMarker;
    }

    /**
     * What a server thread does, known from its name: WildFly's and HotSpot's thread names on Linux, cut to 15
     * characters as {@code /proc} keeps them.
     */
    enum ThreadGroup {
        /** Undertow's worker threads ("default task-N"): the requests themselves, and the group-commit writes. */
        REQUESTS("requests"),
        /**
         * Jakarta Concurrency's managed threads ("EE-ManagedThreadFactory-…"): the background embedder, the import's
         * lanes, timers.
         */
        MANAGED("managed executor (embedder, import lanes, timers)"),
        /** Hibernate Search's threads ("Hibernate Search - …"): Lucene indexing, refreshes and merges. */
        INDEXING("indexing"),
        /** Undertow's I/O threads ("default I/O-N"): sockets, HTTP parsing. */
        IO("I/O"),
        /** HotSpot's C1 and C2 compiler threads. */
        JIT("JIT"),
        /** HotSpot's garbage collector threads ("GC Thread#N", "G1 …"). */
        GC("GC"),
        /** Everything else (Fault Tolerance's timer, EJB timers, Artemis, VM threads). */
        OTHER("other");

        final String label;

        ThreadGroup(String label) {
            this.label = label;
        }

        static ThreadGroup of(String threadName) {
            if (threadName.startsWith("default task")) {
                return REQUESTS;
            }
            if (threadName.startsWith("EE-Managed")) {
                return MANAGED;
            }
            if (threadName.startsWith("Hibernate Searc")) {
                return INDEXING;
            }
            if (threadName.startsWith("default I/O")) {
                return IO;
            }
            if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
                return JIT;
            }
            if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ")) {
                return GC;
            }
            return OTHER;
        }
    }

    /**
     * CPU ticks consumed so far, per process group and per group of the server's threads ({@link ThreadGroup};
     * empty when unknown), and the wall clock; -1 where unknown.
     */
    record Sample(
            long nanoTime,
            long server,
            long database,
            long client,
            long machine,
            java.util.EnumMap<ThreadGroup, Long> serverThreads) {

        /** @return the ticks of the server's JIT compiler threads so far, or -1 when unknown */
        long compiler() {
            return serverThreads.isEmpty() ? -1 : serverThreads.getOrDefault(ThreadGroup.JIT, 0L);
        }
    }

    Sample sample() {
        String server = serverPid();
        return new Sample(
                System.nanoTime(),
                server == null ? -1 : ticks(server).orElse(-1),
                databaseTicks(),
                ticks("self").orElse(-1),
                machineTicks(),
                server == null ? new java.util.EnumMap<>(ThreadGroup.class) : threadTicks(server));
    }

    /**
     * @param before a sample taken when the phase began
     * @param after  a sample taken when it ended
     * @param units  units of work done in between (turns)
     * @return e.g. "server 4.61, PostgreSQL 1.85, benchmark 0.52 ms of CPU per turn; cores busy 1.90; server JIT
     *         compiler 0.02 cores" (the last part only where known)
     */
    static String perUnit(Sample before, Sample after, long units) {
        double seconds = (after.nanoTime() - before.nanoTime()) / 1e9;
        double compiler = compilerCores(before, after);
        return String.format(
                        Locale.ROOT,
                        "server %s, PostgreSQL %s, benchmark %s ms of CPU per turn; cores busy %s",
                        msPer(before.server(), after.server(), units),
                        msPer(before.database(), after.database(), units),
                        msPer(before.client(), after.client(), units),
                        before.machine() < 0 || after.machine() < 0
                                ? "n/a"
                                : String.format(
                                        Locale.ROOT,
                                        "%.2f",
                                        (after.machine() - before.machine()) / TICKS_PER_SECOND / seconds))
                + (Double.isNaN(compiler)
                        ? ""
                        : String.format(Locale.ROOT, "; server JIT compiler %.2f cores", compiler));
    }

    /**
     * @param before a sample taken when the phase began
     * @param after  a sample taken when it ended
     * @param units  units of work done in between (turns)
     * @return the server's CPU per unit by {@link ThreadGroup}, largest first, e.g. "requests 0.47, managed executor
     *         (embedder, import lanes, timers) 0.12, indexing 0.11, I/O 0.07, JIT 0.04, GC 0.01, other 0.03 ms of CPU
     *         per turn";
     *         "n/a" when unknown. Threads that ended between the samples (compiler threads, and request threads
     *         the pool replaced) took their ticks with them, so each part is a lower bound and the parts can add up to
     *         much less than the server's figure (seen: requests 0.11 of a server's 1.05 ms).
     */
    static String serverThreadsPerUnit(Sample before, Sample after, long units) {
        if (before.serverThreads().isEmpty() || after.serverThreads().isEmpty() || units <= 0) {
            return "n/a";
        }
        List<Map.Entry<ThreadGroup, Long>> used = new ArrayList<>();
        for (ThreadGroup g : ThreadGroup.values()) {
            long delta = after.serverThreads().getOrDefault(g, 0L)
                    - before.serverThreads().getOrDefault(g, 0L);
            used.add(Map.entry(g, Math.max(0, delta)));
        }
        used.sort(Map.Entry.<ThreadGroup, Long>comparingByValue().reversed());
        StringBuilder out = new StringBuilder();
        for (Map.Entry<ThreadGroup, Long> e : used) {
            out.append(out.length() == 0 ? "" : ", ")
                    .append(e.getKey().label)
                    .append(' ')
                    .append(String.format(Locale.ROOT, "%.2f", e.getValue() * 1000.0 / TICKS_PER_SECOND / units));
        }
        return out.append(" ms of CPU per turn").toString();
    }

    private static String msPer(long before, long after, long units) {
        if (before < 0 || after < 0 || units <= 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f", (after - before) * 1000.0 / TICKS_PER_SECOND / units);
    }

    /** @return the server's process id, or {@code null} when it is not running here (or this is not Linux) */
    private String serverPid() {
        for (Path proc : processes()) {
            try {
                String cmdline = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
                if (cmdline.contains(serverMarker) && cmdline.contains("jboss-modules")) {
                    return proc.getFileName().toString();
                }
            } catch (IOException | RuntimeException vanished) {
                // the process ended while being read
            }
        }
        return null;
    }

    /**
     * @return the ticks the server's threads used so far, by {@link ThreadGroup} (every group present, 0 when none of
     *         its threads ran), or an empty map when the server's threads cannot be read
     */
    private static java.util.EnumMap<ThreadGroup, Long> threadTicks(String pid) {
        java.util.EnumMap<ThreadGroup, Long> total = new java.util.EnumMap<>(ThreadGroup.class);
        for (ThreadGroup g : ThreadGroup.values()) {
            total.put(g, 0L);
        }
        try (var tasks = Files.list(Path.of("/proc", pid, "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    total.merge(ThreadGroup.of(name), ownTicks(fields(stat)), Long::sum);
                } catch (IOException | RuntimeException vanished) {
                    // the thread ended while being read; compiler threads come and go with the JIT's load
                }
            }
        } catch (IOException | RuntimeException unavailable) {
            return new java.util.EnumMap<>(ThreadGroup.class);
        }
        return total;
    }

    /**
     * The CPU of several separate intervals added up, for a phase measured in rounds that alternate with another
     * phase's: {@link #end()} is a sample whose counters (and clock) hold the sums of {@code after − before} over the
     * intervals added, to be read against {@link #start()} with {@link #perUnit} and {@link #serverThreadsPerUnit}.
     * A counter unknown in any interval stays unknown. Not thread-safe.
     */
    static final class Totals {
        private Sample total = start();

        /** Adds the interval between two samples. */
        void add(Sample before, Sample after) {
            java.util.EnumMap<ThreadGroup, Long> threads = new java.util.EnumMap<>(ThreadGroup.class);
            if (!total.serverThreads().isEmpty()
                    && !before.serverThreads().isEmpty()
                    && !after.serverThreads().isEmpty()) {
                for (ThreadGroup g : ThreadGroup.values()) {
                    threads.put(
                            g,
                            total.serverThreads().get(g)
                                    + Math.max(
                                            0,
                                            after.serverThreads().getOrDefault(g, 0L)
                                                    - before.serverThreads().getOrDefault(g, 0L)));
                }
            }
            total = new Sample(
                    total.nanoTime() + after.nanoTime() - before.nanoTime(),
                    sum(total.server(), before.server(), after.server()),
                    sum(total.database(), before.database(), after.database()),
                    sum(total.client(), before.client(), after.client()),
                    sum(total.machine(), before.machine(), after.machine()),
                    threads);
        }

        /** @return the zero sample the sums count from */
        Sample start() {
            java.util.EnumMap<ThreadGroup, Long> zero = new java.util.EnumMap<>(ThreadGroup.class);
            for (ThreadGroup g : ThreadGroup.values()) {
                zero.put(g, 0L);
            }
            return new Sample(0, 0, 0, 0, 0, zero);
        }

        /** @return the sums so far */
        Sample end() {
            return total;
        }

        private static long sum(long total, long before, long after) {
            return total < 0 || before < 0 || after < 0 ? -1 : total + after - before;
        }
    }

    /**
     * Waits until the server has been nearly idle for a short window: at most {@code cores} of a core over
     * {@code windowMillis}, or gives up after {@code maxMillis}.
     *
     * @return how long it waited, ms; -1 when the server's CPU is unknown (no wait)
     */
    long awaitQuietServer(double cores, long windowMillis, long maxMillis) throws InterruptedException {
        long start = System.nanoTime();
        Sample before = sample();
        if (before.server() < 0) {
            return -1;
        }
        while (true) {
            Thread.sleep(windowMillis);
            Sample after = sample();
            double used = (after.server() - before.server())
                    / TICKS_PER_SECOND
                    / ((after.nanoTime() - before.nanoTime()) / 1e9);
            long waited = (after.nanoTime() - start) / 1_000_000;
            if (used <= cores || waited >= maxMillis) {
                return waited;
            }
            before = after;
        }
    }

    /**
     * @return the share of one core the server's JIT compiler used between two samples (0.25: a quarter of a core),
     *         or NaN where unknown
     */
    static double compilerCores(Sample before, Sample after) {
        if (before.compiler() < 0 || after.compiler() < 0 || after.nanoTime() <= before.nanoTime()) {
            return Double.NaN;
        }
        // A compiler thread that ended meanwhile took its ticks along; never below zero.
        return Math.max(0, after.compiler() - before.compiler())
                / TICKS_PER_SECOND
                / ((after.nanoTime() - before.nanoTime()) / 1e9);
    }

    /**
     * All PostgreSQL processes, plus what the exited ones used: a backend's CPU moves to its parent's
     * "children" counters when it exits, and every backend's parent is the postmaster (the one PostgreSQL
     * process whose parent is not PostgreSQL).
     */
    private static long databaseTicks() {
        Map<String, String[]> postgres = new HashMap<>();
        for (Path proc : processes()) {
            try {
                String stat = Files.readString(proc.resolve("stat"));
                if (stat.contains("(postgres)")) {
                    postgres.put(proc.getFileName().toString(), fields(stat));
                }
            } catch (IOException | RuntimeException vanished) {
                // the process ended while being read
            }
        }
        if (postgres.isEmpty()) {
            return -1;
        }
        long total = 0;
        for (String[] f : postgres.values()) {
            total += ownTicks(f);
            if (!postgres.containsKey(f[1])) {
                total += Long.parseLong(f[13]) + Long.parseLong(f[14]);
            }
        }
        return total;
    }

    /** @return utime + stime of a process, in ticks */
    private static OptionalLong ticks(String pid) {
        try {
            return OptionalLong.of(ownTicks(fields(Files.readString(Path.of("/proc", pid, "stat")))));
        } catch (IOException | RuntimeException unavailable) {
            return OptionalLong.empty();
        }
    }

    /** @return utime + stime of a process's or thread's {@link #fields}, in ticks */
    private static long ownTicks(String[] fields) {
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** The fields after the command name (which may contain spaces): index 0 is the state, 11 utime, 12 stime. */
    private static String[] fields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    private static long machineTicks() {
        try {
            String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = cpu.trim().split("\\s+");
            // user nice system idle iowait irq softirq steal: busy = all but idle and iowait
            return Long.parseLong(f[1])
                    + Long.parseLong(f[2])
                    + Long.parseLong(f[3])
                    + Long.parseLong(f[6])
                    + Long.parseLong(f[7])
                    + Long.parseLong(f[8]);
        } catch (IOException | RuntimeException unavailable) {
            return -1;
        }
    }

    private static List<Path> processes() {
        List<Path> pids = new ArrayList<>();
        try (var stream = Files.list(Path.of("/proc"))) {
            stream.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .forEach(pids::add);
        } catch (IOException | RuntimeException unavailable) {
            // not Linux
        }
        return pids;
    }
}
