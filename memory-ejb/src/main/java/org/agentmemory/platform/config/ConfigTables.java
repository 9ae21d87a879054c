package org.agentmemory.platform.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the table-valued configuration keys: comma-separated {@code name=value} entries such as
 * {@code my-llama=65536,gpt-4o-mini=128000}. Pure; failures name the key, the entry and the expected form.
 */
public final class ConfigTables {

    private ConfigTables() {}

    /**
     * Splits a table into its entries. Blanks around names, values and commas are ignored, as are empty entries
     * (a trailing comma); {@code null} or blank text is an empty table.
     *
     * @param key  the configuration key, for messages
     * @param text the configured value, or {@code null}
     * @return name → value in the given order; never {@code null}
     * @throws IllegalStateException when an entry has no {@code =}, an empty name or value, or a name repeats
     */
    public static Map<String, String> parse(String key, String text) {
        Map<String, String> table = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return table;
        }
        for (String raw : text.split(",")) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.lastIndexOf('=');
            String name = eq < 0 ? "" : entry.substring(0, eq).strip();
            String value = eq < 0 ? "" : entry.substring(eq + 1).strip();
            if (name.isEmpty() || value.isEmpty()) {
                throw new IllegalStateException(key + " has the entry '" + entry + "'; each entry must be name=value,"
                        + " entries separated by commas (e.g. " + example(key) + ").");
            }
            if (table.put(name, value) != null) {
                throw new IllegalStateException(key + " names '" + name + "' twice; give each name once.");
            }
        }
        return table;
    }

    /**
     * Reads a table whose values are positive integers.
     *
     * @param key  the configuration key, for messages
     * @param text the configured value, or {@code null}
     * @return name → value; never {@code null}
     * @throws IllegalStateException when an entry is malformed or a value is not an integer ≥ 1
     */
    public static Map<String, Integer> parsePositiveInts(String key, String text) {
        Map<String, Integer> table = new LinkedHashMap<>();
        parse(key, text).forEach((name, value) -> {
            int parsed;
            try {
                parsed = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                parsed = 0;
            }
            if (parsed < 1) {
                throw new IllegalStateException(key + " gives '" + name + "' the value '" + value
                        + "'; it must be a whole number of tokens, 1 or more (e.g. " + example(key) + ").");
            }
            table.put(name, parsed);
        });
        return table;
    }

    private static String example(String key) {
        if (key.endsWith("ejb.tenants")) {
            return "agent-backend-acme=acme,agent-backend-globex=globex";
        }
        return key.endsWith("model-windows") ? "my-llama=65536,gpt-4o-mini=128000" : "run_sql=query,kubectl=shell";
    }
}
