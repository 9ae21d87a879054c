package org.agentmemory.platform.embedding;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs background embedding at the lowest CPU scheduling priority, so that it computes vectors on the cores that
 * clients' requests leave idle. The application's own pacing ({@code memory.embedding.busy-share}) acts between
 * batches only: a batch that started keeps its core until it ends (a quiet batch of 128 messages on every core takes
 * seconds on a slow machine), and a request arriving meanwhile shares the cores with it. The kernel's scheduler
 * instead gives a runnable thread of normal priority the core at once
 * (docs/decisions/0006-background-embedding.md).
 *
 * <p>On Linux a thread's nice value is its own: {@code setpriority(PRIO_PROCESS, tid, 19)} (through JNA, which the
 * embedding runtime already bundles) lowers the calling thread only, and any process may lower its threads'
 * priority. Elsewhere, or where the call fails (e.g. a seccomp profile that forbids it), threads keep their
 * priority and the pacing alone applies; that is logged once. No container types.
 */
public final class BackgroundPriority {

    /** The nice value of background threads: the lowest priority of normal scheduling. */
    public static final int NICE = 19;

    private static final Logger LOG = Logger.getLogger(BackgroundPriority.class.getName());

    /** {@code PRIO_PROCESS} of {@code setpriority(2)}: {@code who} is a process id, or on Linux a thread id. */
    private static final int PRIO_PROCESS = 0;

    private static volatile boolean unavailableLogged;

    private BackgroundPriority() {}

    /** The C library's {@code setpriority}, bound through JNA on first use. */
    private interface CLibrary extends com.sun.jna.Library {
        int setpriority(int which, int who, int prio);
    }

    /** Holder: JNA loads the C library when a background thread first lowers itself, not when this class loads. */
    private static final class C {
        static final CLibrary LIBRARY = com.sun.jna.Native.load("c", CLibrary.class);
    }

    /**
     * A thread factory whose threads lower their own priority ({@link #lowerCurrentThread()}) before they run
     * anything.
     *
     * @param threads makes the threads (in the container, a managed thread factory)
     * @return the factory
     */
    public static ThreadFactory lowered(ThreadFactory threads) {
        return task -> threads.newThread(() -> {
            lowerCurrentThread();
            task.run();
        });
    }

    /**
     * Gives the calling thread nice value {@value #NICE}. Irreversible without privileges: call it only on threads
     * made for background work, never on a pooled thread of the server.
     *
     * @return whether the thread now runs at the lowest priority
     */
    public static boolean lowerCurrentThread() {
        OptionalInt tid = currentThreadId();
        if (tid.isEmpty()) {
            logUnavailable("no Linux thread id (/proc/thread-self)", null);
            return false;
        }
        try {
            if (C.LIBRARY.setpriority(PRIO_PROCESS, tid.getAsInt(), NICE) == 0) {
                return true;
            }
            logUnavailable("setpriority failed, errno " + com.sun.jna.Native.getLastError(), null);
        } catch (LinkageError | RuntimeException e) {
            logUnavailable("the C library could not be called", e);
        }
        return false;
    }

    /**
     * @return the Linux thread id of the calling thread, from {@code /proc/thread-self} ({@code <pid>/task/<tid>}),
     *         or empty where there is none (not Linux, Linux before 3.17, no {@code /proc})
     */
    static OptionalInt currentThreadId() {
        try {
            return threadId(Files.readSymbolicLink(Path.of("/proc/thread-self")).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * @param threadSelf the target of {@code /proc/thread-self}, e.g. {@code 4711/task/4720}
     * @return the thread id, or empty if the text is not of that form
     */
    static OptionalInt threadId(String threadSelf) {
        String[] parts = threadSelf.split("/");
        if (parts.length != 3 || !"task".equals(parts[1])) {
            return OptionalInt.empty();
        }
        try {
            int tid = Integer.parseInt(parts[2]);
            return tid > 0 ? OptionalInt.of(tid) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * @param tid a Linux thread id
     * @return its nice value, from {@code /proc/self/task/<tid>/stat} (field 19), or empty where it cannot be read
     */
    static OptionalInt niceOf(int tid) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
            // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalInt.of(Integer.parseInt(fields[19 - 3]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private static void logUnavailable(String why, Throwable cause) {
        if (!unavailableLogged) {
            unavailableLogged = true;
            LOG.log(
                    Level.INFO,
                    "Background embedding runs at normal CPU priority (" + why
                            + "); memory.embedding.busy-share still paces it",
                    cause);
        }
    }
}
