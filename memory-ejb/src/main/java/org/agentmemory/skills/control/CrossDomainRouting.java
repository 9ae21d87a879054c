package org.agentmemory.skills.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.episodic.control.FailureWarnings;
import org.agentmemory.platform.embedding.Vectors;

/**
 * The cross-domain router's choice (spec §9.5 {@code find_relevant_agents}) with the decay applied, which the reference
 * exposed but never used (spec §13 #11):
 *
 * <ol>
 *   <li>similarity of the query to each other agent of the tenant = cosine of the query's vector and the agent's
 *       domain description's vector (0 when the lengths differ or a norm is 0); the asking agent is never a
 *       candidate;</li>
 *   <li>keep the agents with similarity ≥ {@link Limits#threshold()} (the spec's rule on the cosine itself: decayed
 *       relevance against the same threshold would need a cosine of 0.5 / 0.6 ≈ 0.83 with the defaults, which related
 *       queries and domain descriptions do not reach with the episodes' embedding model);</li>
 *   <li>relevance = similarity × {@link Limits#decay()}: one warning of that agent is worth {@code relevance} of one of
 *       the asking agent's own (which count 1); order by relevance, highest first (agent id on a tie), and keep the
 *       first {@link Limits#maxAgents()};</li>
 *   <li>each kept agent contributes ⌈relevance × the section's warning count⌉ warnings, at most
 *       {@link Limits#perAgent()}; an agent whose count is 0 (a relevance ≤ 0, possible only with a threshold ≤ 0) is
 *       dropped.</li>
 * </ol>
 */
public final class CrossDomainRouting {

    private CrossDomainRouting() {}

    /**
     * The router's settings (spec §9.5 defaults: 0.5, 0.6, 2; two warnings per other agent, spec §9.3).
     *
     * @param threshold the least cosine, [0, 1]
     * @param decay     the factor of another agent's warnings, [0, 1]
     * @param maxAgents most other agents, ≥ 0 (0 routes nowhere)
     * @param perAgent  most warnings of one other agent, ≥ 1
     */
    public record Limits(double threshold, double decay, int maxAgents, int perAgent) {}

    /**
     * Another agent with the vector of its domain description.
     *
     * @param agentId the agent
     * @param vector  its description's vector
     */
    public record Candidate(String agentId, float[] vector) {}

    /**
     * An agent a query is routed to.
     *
     * @param agentId    the agent
     * @param similarity the cosine
     * @param relevance  similarity × decay
     * @param warnings   how many of its warnings to show, ≥ 1
     */
    public record Route(String agentId, double similarity, double relevance, int warnings) {}

    /**
     * @param query        the query's vector
     * @param askingAgent  the agent whose context is assembled (never routed to)
     * @param others       the tenant's other agents with a description vector
     * @param limits       the settings
     * @param maxWarnings  the section's warning count (the asking agent's own), ≥ 1
     * @return the routes, highest relevance first
     */
    public static List<Route> route(
            float[] query, String askingAgent, List<Candidate> others, Limits limits, int maxWarnings) {
        List<Route> kept = new ArrayList<>();
        for (Candidate c : others) {
            if (c.agentId().equals(askingAgent) || c.vector() == null) {
                continue;
            }
            double similarity = Vectors.cosine(query, c.vector());
            if (similarity < limits.threshold()) {
                continue;
            }
            double relevance = similarity * limits.decay();
            int warnings = (int) Math.min(limits.perAgent(), Math.ceil(relevance * maxWarnings));
            if (warnings >= 1) {
                kept.add(new Route(c.agentId(), similarity, relevance, warnings));
            }
        }
        kept.sort(Comparator.comparingDouble(Route::relevance).reversed().thenComparing(Route::agentId));
        return kept.subList(0, Math.min(Math.max(limits.maxAgents(), 0), kept.size()));
    }

    /**
     * @param warnings per routed agent, in route order, its failure warnings ({@code ""} when it has none)
     * @return each non-empty one as {@code [cross-domain: {agentId}]} LF its warnings, joined by a blank line (spec
     *         §9.3); {@code ""} when none
     */
    public static String render(List<Map.Entry<String, String>> warnings) {
        Map<String, String> ordered = new LinkedHashMap<>();
        warnings.forEach(w -> ordered.put(w.getKey(), w.getValue()));
        return FailureWarnings.withCrossDomain("", ordered);
    }
}
