package org.agentmemory.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints how many integration tests ran on each server kind, from Failsafe's summary files: {@code java
 * SuiteSummary <name>=<failsafe-summary.xml> …} (the suite runs it in post-integration-test for WildFly and Open
 * Liberty). A missing file (an execution that did not run) is reported as such.
 */
public final class SuiteSummary {

    private SuiteSummary() {}

    /** @param args {@code name=path} pairs */
    public static void main(String[] args) throws IOException {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = arg.substring(0, eq);
            Path file = Path.of(arg.substring(eq + 1));
            if (!Files.exists(file)) {
                System.out.println("[suite] " + name + ": did not run (" + file + ")");
                continue;
            }
            String xml = Files.readString(file, StandardCharsets.UTF_8);
            System.out.println("[suite] " + name + ": " + value(xml, "completed") + " tests run, "
                    + value(xml, "failures") + " failures, " + value(xml, "errors") + " errors, "
                    + value(xml, "skipped") + " skipped");
        }
    }

    private static String value(String xml, String element) {
        Matcher m = Pattern.compile("<" + element + ">(\\d+)</" + element + ">").matcher(xml);
        return m.find() ? m.group(1) : "?";
    }
}
