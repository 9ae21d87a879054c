package org.agentmemory.compaction.control;

import java.util.Map;

/**
 * The per-call inputs of a compaction besides the turns and the budget (spec §8.5).
 *
 * @param boundaryTurnId     the persisted boundary ({@code CompactionState.boundary_turn_id}): this turn and
 *                           every older one is forced PRUNED; {@code null} for none
 * @param calibration        the provider/estimate ratio every size is multiplied by (spec §4); finite and
 *                           {@code > 0}, else {@link IllegalArgumentException}; 1.0 by default
 * @param currentChatbotId   the agent asking, for the foreign-turn rule; {@code null} means no turn is foreign
 * @param includeOtherAgents whether foreign turns are considered (labelled) or excluded entirely
 * @param policies           per-call prune policy overrides (tool name → policy), consulted first;
 *                           {@code null} means none
 */
public record CompactionOptions(
        String boundaryTurnId,
        double calibration,
        String currentChatbotId,
        boolean includeOtherAgents,
        Map<String, PrunePolicy> policies) {

    private static final CompactionOptions DEFAULTS = new CompactionOptions(null, 1.0, null, true, Map.of());

    public CompactionOptions {
        if (!(Double.isFinite(calibration) && calibration > 0.0)) {
            throw new IllegalArgumentException(
                    "CompactionOptions.calibration must be a finite number > 0 but was " + calibration);
        }
        policies = policies == null ? Map.of() : Map.copyOf(policies);
    }

    /** @return no boundary, calibration 1.0, no current agent, other agents included, no overrides */
    public static CompactionOptions defaults() {
        return DEFAULTS;
    }

    /** @return a copy with the boundary replaced */
    public CompactionOptions withBoundaryTurnId(String value) {
        return new CompactionOptions(value, calibration, currentChatbotId, includeOtherAgents, policies);
    }

    /** @return a copy with the calibration replaced */
    public CompactionOptions withCalibration(double value) {
        return new CompactionOptions(boundaryTurnId, value, currentChatbotId, includeOtherAgents, policies);
    }

    /** @return a copy with the current agent and the foreign-turn switch replaced */
    public CompactionOptions withCurrentChatbot(String chatbotId, boolean includeOthers) {
        return new CompactionOptions(boundaryTurnId, calibration, chatbotId, includeOthers, policies);
    }

    /** @return a copy with the per-call policy overrides replaced */
    public CompactionOptions withPolicies(Map<String, PrunePolicy> value) {
        return new CompactionOptions(boundaryTurnId, calibration, currentChatbotId, includeOtherAgents, value);
    }
}
