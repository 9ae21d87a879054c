package org.agentmemory.episodic;

/** Texts of the episodic resources' OpenAPI document: request examples and shared error descriptions. */
final class EpisodeDocs {

    /** Example body of {@code POST /episodes/recall}: a user's past failures like the current one, hybrid. */
    static final String RECALL_EXAMPLE = """
            {
              "namespace": {"agentId": "travel-agent", "userId": "user-42"},
              "query": "weather API timed out",
              "topK": 5,
              "failuresOnly": true,
              "mode": "hybrid"
            }""";

    /** The 400 of the reads that take a namespace and a count as query parameters. */
    static final String BAD_NAMESPACE_OR_COUNT =
            "agentId is missing, an id breaks a rule, or the count is not 1 to" + " 1000";

    private EpisodeDocs() {}
}
