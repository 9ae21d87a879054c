package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.platform.text.CodePoints;

/**
 * Resolves a tool's {@link PrunePolicy} and applies the shared prune rule set (spec §8.4).
 *
 * <p>Lookup order for a tool name: the per-call map, then the configured table (tool name → built-in
 * policy name, from configuration; it stands for the reference's global {@code register_policy}
 * registry), then the built-in alias table, then {@link BuiltInPolicy#DEFAULT}. All matches are exact.
 *
 * <p>Notices escape their attribute values ({@code & < > " '}), so any tool name or working-memory key
 * keeps the markup well-formed (fix of spec §13 #14). Instances are immutable and thread-safe.
 */
public final class PrunePolicies {

    /** Version of the pruning rules and notice format (spec §8.4 {@code POLICY_VERSION}). */
    public static final String POLICY_VERSION = "1";

    /** The opening of every omission notice. */
    public static final String NOTICE_START = "<tool-output-omitted";

    private static final Map<String, BuiltInPolicy> ALIASES = Map.ofEntries(
            Map.entry("write_file", BuiltInPolicy.FILE_WRITE),
            Map.entry("save_file", BuiltInPolicy.FILE_WRITE),
            Map.entry("read_file", BuiltInPolicy.FILE_READ),
            Map.entry("open_file", BuiltInPolicy.FILE_READ),
            Map.entry("bash", BuiltInPolicy.SHELL),
            Map.entry("shell", BuiltInPolicy.SHELL),
            Map.entry("run_command", BuiltInPolicy.SHELL),
            Map.entry("execute_command", BuiltInPolicy.SHELL),
            Map.entry("delegate", BuiltInPolicy.SUB_AGENT),
            Map.entry("run_subagent", BuiltInPolicy.SUB_AGENT),
            Map.entry("spawn_agent", BuiltInPolicy.SUB_AGENT),
            Map.entry("query_database", BuiltInPolicy.QUERY),
            Map.entry("execute_query", BuiltInPolicy.QUERY),
            Map.entry("sql_query", BuiltInPolicy.QUERY),
            Map.entry("http_request", BuiltInPolicy.QUERY),
            Map.entry("fetch_url", BuiltInPolicy.QUERY),
            Map.entry("web_search", BuiltInPolicy.QUERY),
            Map.entry("search", BuiltInPolicy.QUERY));

    private static final PrunePolicies BUILT_IN = new PrunePolicies(Map.of());

    private final Map<String, PrunePolicy> configured;

    private PrunePolicies(Map<String, PrunePolicy> configured) {
        this.configured = configured;
    }

    /** @return the resolver with no configured table: per-call map, aliases, default */
    public static PrunePolicies builtIn() {
        return BUILT_IN;
    }

    /**
     * @param toolPolicies tool name → built-in policy name ({@code default}, {@code file_write},
     *                     {@code file_read}, {@code shell}, {@code sub_agent}, {@code query}), e.g. from
     *                     configuration; {@code null} means none
     * @return the resolver
     * @throws IllegalArgumentException when a policy name is unknown (the message names the tool, the bad
     *                                  name and the valid names)
     */
    public static PrunePolicies configured(Map<String, String> toolPolicies) {
        if (toolPolicies == null || toolPolicies.isEmpty()) {
            return BUILT_IN;
        }
        Map<String, PrunePolicy> table = new HashMap<>();
        toolPolicies.forEach((tool, policyName) -> {
            try {
                table.put(tool, BuiltInPolicy.byName(policyName));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Prune policy of tool '" + tool + "': " + e.getMessage(), e);
            }
        });
        return new PrunePolicies(Map.copyOf(table));
    }

    /**
     * @param toolName the invoked tool's exact name
     * @param perCall  per-call overrides (tool name → policy), consulted first; may be {@code null}
     * @return the policy to use; never {@code null}
     */
    public PrunePolicy resolve(String toolName, Map<String, PrunePolicy> perCall) {
        if (perCall != null) {
            PrunePolicy policy = perCall.get(toolName);
            if (policy != null) {
                return policy;
            }
        }
        PrunePolicy policy = configured.get(toolName);
        if (policy != null) {
            return policy;
        }
        return ALIASES.getOrDefault(toolName, BuiltInPolicy.DEFAULT);
    }

    /**
     * The shared rule set (spec §8.4): (1) an offloaded output gives a notice with the stored id and the
     * original length, and no new omission; (2) else a non-empty output gives a notice with a fresh content
     * id and a new omission; (3) else no notice; then the policy's extra parts; then {@code error=…}.
     */
    static PrunedLine pruneLine(
            PrunePolicy policy, ToolInvocationRecord invocation, String turnId, ActivityLimit limit) {
        List<String> parts = new ArrayList<>(3);
        PendingOmission omission = null;
        boolean notice = false;
        String storedId = invocation.omitted().get(PendingOmission.OUTPUT);
        if (storedId != null) {
            int chars = invocation.outputChars() != null
                    ? invocation.outputChars()
                    : CodePoints.length(invocation.output());
            parts.add(notice(invocation, storedId, chars));
            notice = true;
        } else if (Texts.present(invocation.output())) {
            String output = invocation.output();
            String contentId = ContentIds.contentId(output);
            omission = new PendingOmission(contentId, output, turnId, invocation.toolName(), PendingOmission.OUTPUT);
            parts.add(notice(invocation, contentId, CodePoints.length(output)));
            notice = true;
        }
        for (String extra : policy.extraParts(invocation.output())) {
            if (!extra.isEmpty()) {
                parts.add(extra);
            }
        }
        if (Texts.present(invocation.error())) {
            parts.add(ToolActivityLines.errorPart(invocation));
        }
        String line = ToolActivityLines.line(
                invocation, policy.narrowInput(invocation.input()), String.join(" ", parts), limit);
        return new PrunedLine(line, omission, notice);
    }

    /**
     * @return {@code <tool-output-omitted tool="…" chars="n" id="…"[ wm="…"]/>} with escaped attribute
     *         values; {@code wm} only when the working-memory key is non-empty
     */
    static String notice(ToolInvocationRecord invocation, String contentId, int chars) {
        StringBuilder notice = new StringBuilder(96)
                .append(NOTICE_START)
                .append(" tool=\"")
                .append(escapeAttribute(invocation.toolName()))
                .append("\" chars=\"")
                .append(chars)
                .append("\" id=\"")
                .append(escapeAttribute(contentId))
                .append('"');
        if (Texts.present(invocation.wmKey())) {
            notice.append(" wm=\"").append(escapeAttribute(invocation.wmKey())).append('"');
        }
        return notice.append("/>").toString();
    }

    /**
     * XML attribute escaping of {@code & < > " '} (fix of spec §13 #14).
     *
     * @param value any text; {@code null} gives {@code ""}
     * @return the escaped text
     */
    public static String escapeAttribute(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            String replacement = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&apos;";
                default -> null;
            };
            if (replacement != null && out == null) {
                out = new StringBuilder(value.length() + 16).append(value, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? value : out.toString();
    }
}
