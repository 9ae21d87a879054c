package org.agentmemory.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A WildFly server that a test starts, kills with {@code SIGKILL} and starts again on the same data: the build
 * unpacks and configures its home (with {@code agent-memory.ear} in the deployment scanner's folder) but does not
 * start it. Not for the shared servers of the suite, which Maven starts and stops.
 *
 * <p>{@link #kill()} is {@code kill -9} of the server's JVM: no shutdown hook, no {@code @PreDestroy}, no index
 * commit, nothing flushed; what survives is what reached the operating system before the signal. A JVM shutdown hook
 * kills a server the test left running, so a failed test leaves no process behind.
 */
public final class KillableServer {

    private final String name;
    private final Path home;
    private final int offset;
    private final String javaOpts;
    private final Map<String, String> environment;
    private final Path log;
    private Process launcher;
    private int starts;

    /**
     * @param name        a name for reports, e.g. "h2"
     * @param home        the configured WildFly home
     * @param offset      the port offset (HTTP 8080 + offset, management 9990 + offset)
     * @param javaOpts    the server JVM's options
     * @param environment extra environment variables of the server (e.g. the database URL)
     */
    public KillableServer(String name, Path home, int offset, String javaOpts, Map<String, String> environment) {
        this.name = name;
        this.home = home;
        this.offset = offset;
        this.javaOpts = javaOpts;
        this.environment = Map.copyOf(environment);
        this.log = home.resolve("standalone/log/console.log");
        Runtime.getRuntime().addShutdownHook(new Thread(this::killQuietly, "kill " + name + " server"));
    }

    /**
     * The crash test's PostgreSQL home as a second server on the suite's PostgreSQL database, with the suite's PII
     * pepper and key (servers on one database share them).
     *
     * @param name     a name for reports
     * @param piiStore {@code memory} or {@code durable}
     * @return the server, not started
     */
    public static KillableServer onSuiteDatabase(String name, String piiStore) {
        return new KillableServer(
                name,
                Path.of(System.getProperty("it.crash.pg.home")),
                Integer.getInteger("it.crash.pg.offset"),
                System.getProperty("it.crash.java.opts"),
                Map.of(
                        "MEMORY_DB_URL", System.getProperty("it.pg.jdbc"),
                        "MEMORY_DB_USER", System.getProperty("it.pg.user"),
                        "MEMORY_DB_PASSWORD", System.getProperty("it.pg.password", "postgres"),
                        "MEMORY_PII_STORE", piiStore,
                        "MEMORY_PII_PEPPER", System.getProperty("it.pii.pepper"),
                        "MEMORY_PII_KEY", System.getProperty("it.pii.key")));
    }

    /** @return the console log the server writes to */
    public Path consoleLog() {
        return log;
    }

    /** @return the client of this server's API */
    public Api api() {
        return Api.at(name, "http://localhost:" + (8080 + offset), "http://localhost:" + (9990 + offset), home);
    }

    /** @return the server's data directory (H2 file, Lucene indexes) */
    public Path dataDirectory() {
        return home.resolve("standalone/data");
    }

    /**
     * Starts the server and waits until the EAR answers.
     *
     * @param timeout how long to wait for the deployment
     * @return how long the start took
     * @throws IllegalStateException when the server dies or does not answer in time (the console log's tail is in
     *                               the message)
     */
    public Duration start(Duration timeout) {
        if (launcher != null && launcher.isAlive()) {
            throw new IllegalStateException(name + " server is already running");
        }
        Instant started = Instant.now();
        ProcessBuilder builder = new ProcessBuilder(
                        home.resolve("bin/standalone.sh").toString(), "-Djboss.socket.binding.port-offset=" + offset)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JAVA_OPTS", javaOpts);
        builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "false");
        builder.environment().putAll(environment);
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(
                    log,
                    "\n==== start " + (++starts) + " at " + started + " ====\n",
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            launcher = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Api api = api();
        Instant deadline = started.plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!launcher.isAlive()) {
                throw new IllegalStateException(name + " server exited with " + launcher.exitValue() + ":\n" + tail());
            }
            try {
                if (api.get("/admin/reindex").status() == 200) {
                    return Duration.between(started, Instant.now());
                }
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            pause(500);
        }
        throw new IllegalStateException(name + " server did not deploy within " + timeout + ":\n" + tail());
    }

    /**
     * {@code kill -9} of the server's JVM (and of its launcher script), then waits until the process is gone.
     */
    public void kill() {
        if (launcher == null) {
            return;
        }
        List<ProcessHandle> all = launcher.descendants().toList();
        all.forEach(ProcessHandle::destroyForcibly); // SIGKILL on Linux
        launcher.destroyForcibly();
        for (ProcessHandle p : all) {
            p.onExit().join();
        }
        try {
            launcher.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** @return the resident memory of the server's JVM in MiB (from {@code /proc}), or -1 when not running */
    public long residentMegabytes() {
        if (launcher == null) {
            return -1;
        }
        return launcher.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("java"))
                .mapToLong(p -> {
                    try {
                        return Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status")).stream()
                                .filter(l -> l.startsWith("VmRSS:"))
                                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024)
                                .findFirst()
                                .orElse(-1);
                    } catch (IOException e) {
                        return -1;
                    }
                })
                .max()
                .orElse(-1);
    }

    private void killQuietly() {
        try {
            kill();
        } catch (RuntimeException ignored) {
            // the JVM is exiting
        }
    }

    /** @return the last lines of the console log */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no console log: " + e + ")";
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
