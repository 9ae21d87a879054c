package org.agentmemory.api.episodic;

import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What kind of situation an episode records (spec §10.1). JSON and storage form: the lower-case
 * {@link #value()}, e.g. {@code tool_execution}.
 */
@Schema(
        description = "What kind of situation an episode records: tool_execution (the default), query_resolution,"
                + " error_recovery, user_preference (read back by GET /episodes/preferences), workflow_pattern (crew runs),"
                + " decision (also explicit lessons) or handoff. Lower case in JSON; accepted in any case on input.")
public enum EpisodeCategory {
    /** A tool call and its result; the default category. */
    TOOL_EXECUTION,
    /** A user query and the agent's answer. */
    QUERY_RESOLUTION,
    /** Recovering from an earlier error. */
    ERROR_RECOVERY,
    /** Something the user prefers; read back by the user-preferences block. */
    USER_PREFERENCE,
    /** A multi-step or multi-agent workflow (crew runs). */
    WORKFLOW_PATTERN,
    /** A decision or an explicitly recorded lesson. */
    DECISION,
    /** Work handed from one agent to another. */
    HANDOFF;

    /** @return the lower-case JSON and storage value, e.g. {@code "user_preference"} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param value a JSON value such as {@code "tool_execution"}; case-insensitive, surrounding blanks ignored
     * @return the category
     * @throws IllegalArgumentException when the value is {@code null} or unknown; the message lists the valid values
     */
    public static EpisodeCategory fromValue(String value) {
        if (value != null) {
            String key = value.strip().toUpperCase(Locale.ROOT);
            for (EpisodeCategory category : values()) {
                if (category.name().equals(key)) {
                    return category;
                }
            }
        }
        throw new IllegalArgumentException("Unknown episode category '" + value + "'; valid values are "
                + "tool_execution, query_resolution, error_recovery, user_preference, workflow_pattern, decision "
                + "and handoff");
    }
}
