package org.agentmemory.it.support;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs commands of a test server's own management CLI ({@code bin/jboss-cli.sh}, local authentication). */
public final class ManagementCli {

    private ManagementCli() {}

    /**
     * @param cli        the server's {@code bin/jboss-cli.sh}
     * @param controller {@code host:port} of its management interface
     * @param command    the command
     * @param mayFail    whether a failing command (e.g. reading a resource that may not exist) is an answer, not an
     *                   error
     * @return what the CLI printed
     */
    public static String run(Path cli, String controller, String command, boolean mayFail) throws Exception {
        Process p = new ProcessBuilder(List.of(
                        "bash", cli.toString(), "--controller=" + controller, "--connect", "--command=" + command))
                .redirectErrorStream(true)
                .start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("The CLI did not finish: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0 && !mayFail) {
            throw new IllegalStateException("The CLI failed (" + p.exitValue() + ") on " + command + ": " + out);
        }
        return out;
    }

    /**
     * Sets (or, with {@code null}, removes) a system property of a running server.
     *
     * @param api   the server's client
     * @param home  the server's home
     * @param name  the property
     * @param value the value, or {@code null} to remove it
     */
    public static void systemProperty(Api api, Path home, String name, String value) throws Exception {
        URI management = URI.create(api.management());
        Path cli = home.resolve("bin").resolve("jboss-cli.sh");
        String controller = management.getHost() + ":" + management.getPort();
        run(cli, controller, "/system-property=" + name + ":remove", true);
        if (value != null) {
            run(cli, controller, "/system-property=" + name + ":add(value=\"" + value + "\")", false);
        }
    }
}
