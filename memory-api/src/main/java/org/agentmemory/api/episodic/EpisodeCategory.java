package org.agentmemory.api.episodic;

import java.util.Locale;

/**
 * What kind of situation an episode records (spec §10.1). JSON and storage form: the lower-case
 * {@link #value()}, e.g. {@code tool_execution}.
 */
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
