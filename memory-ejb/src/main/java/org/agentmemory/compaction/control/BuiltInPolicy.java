package org.agentmemory.compaction.control;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * The six built-in prune policies (spec §8.4 table). Narrowing to zero keys renders {@code in={}}.
 *
 * <p>Extra parts print JSON values the way the reference prints them ({@code str(value)}): strings as is,
 * numbers as written in the output, booleans {@code True}/{@code False}, {@code null} as {@code None}.
 * Objects and arrays print as canonical JSON, where Python would print its own repr: an accepted
 * difference for values that are scalars in practice (exit codes, hit counts).
 */
public enum BuiltInPolicy implements PrunePolicy {

    /** Full input, no extra parts. */
    DEFAULT("default"),

    /** Only {@code path}, {@code file_path}, {@code filename}. */
    FILE_WRITE("file_write") {
        @Override
        public Map<String, Object> narrowInput(Map<String, Object> input) {
            return pick(input, PATH_KEYS);
        }
    },

    /** Only {@code path}, {@code file_path}, {@code filename}. */
    FILE_READ("file_read") {
        @Override
        public Map<String, Object> narrowInput(Map<String, Object> input) {
            return pick(input, PATH_KEYS);
        }
    },

    /** Only {@code command}, {@code cmd}; {@code exit=} from a JSON object output. */
    SHELL("shell") {
        @Override
        public Map<String, Object> narrowInput(Map<String, Object> input) {
            return pick(input, List.of("command", "cmd"));
        }

        @Override
        public List<String> extraParts(String output) {
            if (parseJson(output) instanceof Map<?, ?> object) {
                for (String key : List.of("exit_code", "exitcode", "returncode", "exit")) {
                    if (object.containsKey(key)) {
                        return List.of("exit=" + pythonStr(object.get(key)));
                    }
                }
            }
            return List.of();
        }
    },

    /** Only {@code task}, {@code prompt}, each cut to its first line when a string. */
    SUB_AGENT("sub_agent") {
        @Override
        public Map<String, Object> narrowInput(Map<String, Object> input) {
            Map<String, Object> narrowed = new LinkedHashMap<>();
            for (String key : List.of("task", "prompt")) {
                if (input.containsKey(key)) {
                    Object value = input.get(key);
                    narrowed.put(key, value instanceof String text ? firstLine(text) : value);
                }
            }
            return narrowed;
        }
    },

    /** Only {@code query}, {@code sql}, {@code url}; {@code rows=} or {@code hits=} from a JSON output. */
    QUERY("query") {
        @Override
        public Map<String, Object> narrowInput(Map<String, Object> input) {
            return pick(input, List.of("query", "sql", "url"));
        }

        @Override
        public List<String> extraParts(String output) {
            Object parsed = parseJson(output);
            if (parsed instanceof List<?> rows) {
                return List.of("rows=" + rows.size());
            }
            if (parsed instanceof Map<?, ?> object) {
                for (String key : List.of("rows", "results")) {
                    if (object.get(key) instanceof List<?> rows) {
                        return List.of("rows=" + rows.size());
                    }
                }
                Object hits = object.get("hits");
                if (hits instanceof List<?> list) {
                    return List.of("hits=" + list.size());
                }
                if (hits != null) {
                    return List.of("hits=" + pythonStr(hits));
                }
            }
            return List.of();
        }
    };

    private static final List<String> PATH_KEYS = List.of("path", "file_path", "filename");

    private final String configName;

    BuiltInPolicy(String configName) {
        this.configName = configName;
    }

    @Override
    public String policyName() {
        return configName;
    }

    /**
     * @param name a policy name as configured ({@code default}, {@code file_write}, {@code file_read},
     *             {@code shell}, {@code sub_agent}, {@code query}); exact, case-sensitive
     * @return the policy
     * @throws IllegalArgumentException for any other name (the message lists the valid names)
     */
    public static BuiltInPolicy byName(String name) {
        for (BuiltInPolicy policy : values()) {
            if (policy.configName.equals(name)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("Unknown prune policy '" + name
                + "'; valid values are default, file_write, file_read, shell, sub_agent and query");
    }

    private static Map<String, Object> pick(Map<String, Object> input, List<String> keys) {
        Map<String, Object> narrowed = new LinkedHashMap<>();
        for (String key : keys) {
            if (input.containsKey(key)) {
                narrowed.put(key, input.get(key));
            }
        }
        return narrowed;
    }

    /** Python's {@code splitlines()[0]} for a non-empty string: text before the first line boundary. */
    static String firstLine(String text) {
        for (int i = 0; i < text.length(); i++) {
            switch (text.charAt(i)) {
                case '\n', '\r', '\u000b', '\u000c', '\u001c', '\u001d', '\u001e', '\u0085', '\u2028', '\u2029' -> {
                    return text.substring(0, i);
                }
                default -> {}
            }
        }
        return text;
    }

    /** Best-effort parse; {@code null} for empty, absent or invalid JSON (like the reference). */
    private static Object parseJson(String output) {
        if (output == null || output.isEmpty()) {
            return null;
        }
        try {
            return CanonicalJson.parse(output);
        } catch (IOException e) {
            return null;
        }
    }

    static String pythonStr(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean flag) {
            return flag ? "True" : "False";
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toString();
        }
        if (value instanceof String || value instanceof Number) {
            return value.toString();
        }
        return CanonicalJson.write(value);
    }
}
