package org.agentmemory.rest;

/**
 * OpenAPI descriptions of the conversation key's fields, shared by every request body that names a conversation by
 * its key (the rules are those of {@code InputRules.checkKey}).
 */
public final class KeyDescriptions {

    /** The user of a conversation key. */
    public static final String USER_ID =
            "The user; required (a token narrowed to one user may leave it out: its user is"
                    + " taken), 1 to 128 code points, not blank, no control characters.";

    /** The session of a conversation key. */
    public static final String SESSION_ID =
            "The session; required, 1 to 128 code points, not blank, no control characters.";

    /** The agent of a conversation key. */
    public static final String CHATBOT_ID = "The agent (1 to 128 code points, not blank, no control characters);"
            + " absent or null for the default agent.";

    private KeyDescriptions() {}
}
