package org.agentmemory.compaction.control;

import java.util.List;
import java.util.Map;

/**
 * How one tool's invocations are summarized when their output is omitted (spec §8.4): which input keys
 * the {@code in=} field keeps and which extra facts (e.g. {@code exit=0}, {@code rows=12}) are derived
 * from the output. The shared rule set (notice, new omission, error) is applied by
 * {@link PrunePolicies#pruneLine}; a policy only narrows and adds. Implementations are pure and
 * thread-safe.
 */
public interface PrunePolicy {

    /** @return the policy's name as configured, e.g. {@code default}, {@code shell} */
    String policyName();

    /**
     * @param input the invocation's canonical input; never {@code null}
     * @return the input to show after {@code in=}; the default shows all of it
     */
    default Map<String, Object> narrowInput(Map<String, Object> input) {
        return input;
    }

    /**
     * @param output the invocation's output text (the full text, or the preview after offload), or
     *               {@code null}
     * @return summary parts placed after the notice and before {@code error=}; the default adds none
     */
    default List<String> extraParts(String output) {
        return List.of();
    }
}
