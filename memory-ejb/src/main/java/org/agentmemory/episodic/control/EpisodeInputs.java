package org.agentmemory.episodic.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.text.CodePoints;

/**
 * Builds the {@link EpisodeInput}s of the reference's convenience recorders: a tool call (spec §10.3
 * {@code record_tool_episode}), a crew run ({@code record_crew_episode}), a question answered (spec §9.4 /
 * §10.9 post-ask recording) and an explicit lesson (spec §10.9 {@code record_lesson}). Pure functions; the
 * caller records the result like any other input.
 *
 * <p>Values are turned into text the way Python's {@code str()} does for scalars ({@code None},
 * {@code True}/{@code False}, numbers, strings as is); maps and lists become compact key-sorted JSON instead
 * of a Python repr (documented deviation: Java has no repr, and JSON is what the tools exchange).
 */
public final class EpisodeInputs {

    /** Queries that are never recorded, compared stripped and lower-cased (spec §10.9). */
    public static final Set<String> TRIVIAL_QUERIES = Set.of(
            "hello", "hi", "hey", "thanks", "thank you", "bye", "goodbye", "ok", "okay", "yes", "no", "sure", "help");
    /** Queries shorter than this (code points, stripped) are never recorded (spec §10.9). */
    public static final int MIN_QUERY_LENGTH = 10;
    /** The action text of an explicit lesson (not specified by the reference). */
    public static final String LESSON_ACTION = "Recorded lesson";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private EpisodeInputs() {}

    /**
     * A tool call as an episode (spec §10.3 {@code record_tool_episode}):
     * <ul>
     * <li>situation = the user query when not {@code null}/empty, else {@code Tool execution: {tool}};</li>
     * <li>action = {@code Called {tool}(} + the arguments as a JSON object in Python's {@code json.dumps}
     * layout ({@code {"k": "v", "k2": "v2"}}, insertion order), each value stringified and cut to 100 code
     * points, + {@code )}; non-ASCII characters are written as is (Python would escape them);</li>
     * <li>outcome: {@code result.success} is {@code false} → FAILURE; else {@code result.status} equal to
     * {@code "timeout"} → TIMEOUT, {@code "partial"} → PARTIAL; else SUCCESS;</li>
     * <li>errorMessage = the stringified {@code result.error} cut to 500 code points, when present and not
     * empty; errorType = the first of {@link Importance#KNOWN_ERROR_TYPES}, in that fixed order, that is a
     * substring of the lower-cased error message ({@code rate_limit} does not match "rate limit");</li>
     * <li>outcomeDetails = the stringified {@code result.result} cut to 200 code points, when the key is present
     * and its value is not {@code null};</li>
     * <li>category TOOL_EXECUTION, relatedTools = [tool], reflection on, automatic importance.</li>
     * </ul>
     *
     * @param namespace where the episode belongs
     * @param toolName  the tool's name; not blank
     * @param toolArgs  the call's arguments, or {@code null} for none
     * @param toolResult the tool's result object ({@code success}, {@code status}, {@code error},
     *                  {@code result}), or {@code null} for an empty one (SUCCESS)
     * @param userQuery the user's query, or {@code null}
     * @return the input
     */
    public static EpisodeInput toolEpisode(
            MemoryNamespace namespace,
            String toolName,
            Map<String, ?> toolArgs,
            Map<String, ?> toolResult,
            String userQuery) {
        if (toolName == null || toolName.isBlank()) {
            throw new IllegalArgumentException("toolName is " + (toolName == null ? "missing" : "blank")
                    + "; a tool episode needs the tool's name");
        }
        Map<String, ?> result = toolResult == null ? Map.of() : toolResult;
        String situation = userQuery != null && !userQuery.isEmpty() ? userQuery : "Tool execution: " + toolName;
        String action = "Called " + toolName + "(" + argumentsJson(toolArgs) + ")";
        String errorMessage = errorMessage(result);
        String details = result.get("result") == null ? null : CodePoints.head(pyStr(result.get("result")), 200);
        return EpisodeInput.builder(namespace, situation, action, outcomeOf(result))
                .errorMessage(errorMessage)
                .errorType(errorType(errorMessage))
                .outcomeDetails(details)
                .category(EpisodeCategory.TOOL_EXECUTION)
                .relatedTools(List.of(toolName))
                .build();
    }

    /**
     * The episodes of a crew run (spec §10.3 {@code record_crew_episode}):
     * <ul>
     * <li>one crew episode in {@code namespace}: {@code Crew execution: {description}} /
     * {@code Ran crew workflow with agents}, WORKFLOW_PATTERN, importance 6;</li>
     * <li>when {@code perAgent}, one per entry of {@code crewResult.agent_results}, in order, in the namespace
     * {@code (tenant, agentId, crew = namespace.crewId())}: {@code Agent participation in crew: {description}} /
     * {@code Executed assigned task in crew workflow}, WORKFLOW_PATTERN, importance 5.</li>
     * </ul>
     * {@code agent_results} is a map from agent id to that agent's result, or a list of objects with an
     * {@code agent_id}. Outcomes, error message and error type follow the tool rules, applied to the crew
     * result and to each agent's result (when it is an object; otherwise SUCCESS). The reference does not
     * say how crew outcomes are derived; this is our rule.
     *
     * @param namespace   the crew's namespace (its agent is the crew's coordinating agent)
     * @param crewResult  the crew's result object, or {@code null}
     * @param description the flow description
     * @param perAgent    whether to add one episode per participating agent
     * @return the crew episode first, then the agent episodes
     */
    public static List<EpisodeInput> crewEpisodes(
            MemoryNamespace namespace, Map<String, ?> crewResult, String description, boolean perAgent) {
        Map<String, ?> result = crewResult == null ? Map.of() : crewResult;
        List<EpisodeInput> inputs = new ArrayList<>();
        String crewError = errorMessage(result);
        inputs.add(EpisodeInput.builder(
                        namespace, "Crew execution: " + description, "Ran crew workflow with agents", outcomeOf(result))
                .errorMessage(crewError)
                .errorType(errorType(crewError))
                .category(EpisodeCategory.WORKFLOW_PATTERN)
                .importance(6)
                .build());
        if (!perAgent) {
            return inputs;
        }
        for (Map.Entry<String, Object> agent : agentResults(result.get("agent_results"))) {
            Map<String, ?> agentResult = agent.getValue() instanceof Map<?, ?> map ? stringKeys(map) : Map.of();
            String agentError = errorMessage(agentResult);
            MemoryNamespace agentNamespace =
                    new MemoryNamespace(namespace.tenantId(), agent.getKey(), null, null, null, namespace.crewId());
            inputs.add(EpisodeInput.builder(
                            agentNamespace,
                            "Agent participation in crew: " + description,
                            "Executed assigned task in crew workflow",
                            outcomeOf(agentResult))
                    .errorMessage(agentError)
                    .errorType(errorType(agentError))
                    .category(EpisodeCategory.WORKFLOW_PATTERN)
                    .importance(5)
                    .build());
        }
        return inputs;
    }

    /**
     * A question the agent answered (spec §9.4 / §10.9 post-ask recording; this really produces the episode
     * that the reference's {@code record_interaction} failed to record, spec §13 #1). Skipped (empty) when the
     * stripped query has fewer than {@value #MIN_QUERY_LENGTH} code points or is one of
     * {@link #TRIVIAL_QUERIES} (case-insensitive). Otherwise: situation = query[:500], action =
     * {@code Responded: {response[:200]}}, SUCCESS, QUERY_RESOLUTION, importance 3, reflection on.
     *
     * @param namespace where the episode belongs
     * @param query     the user's query, or {@code null}
     * @param response  the agent's response, or {@code null} (recorded as empty)
     * @return the input, or empty when the query is trivial
     */
    public static Optional<EpisodeInput> interaction(MemoryNamespace namespace, String query, String response) {
        if (query == null) {
            return Optional.empty();
        }
        String stripped = query.strip();
        if (CodePoints.length(stripped) < MIN_QUERY_LENGTH
                || TRIVIAL_QUERIES.contains(stripped.toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        String action = "Responded: " + CodePoints.head(response == null ? "" : response, 200);
        return Optional.of(EpisodeInput.builder(namespace, CodePoints.head(query, 500), action, EpisodeOutcome.SUCCESS)
                .category(EpisodeCategory.QUERY_RESOLUTION)
                .importance(3)
                .build());
    }

    /**
     * An explicit lesson (spec §10.9 {@code record_lesson}, with §13 #2 fixed: the lesson is part of the
     * input, so it is stored and embedded). SUCCESS, no reflection, importance clamped to 1..10, action
     * {@value #LESSON_ACTION}.
     *
     * @param namespace  where the lesson belongs
     * @param situation  when the lesson applies
     * @param lesson     the lesson; not blank
     * @param category   the category, or {@code null} for DECISION (the tool's default)
     * @param importance any integer, or {@code null} for 5 (the tool's default); clamped to 1..10
     * @return the input
     */
    public static EpisodeInput lesson(
            MemoryNamespace namespace, String situation, String lesson, EpisodeCategory category, Integer importance) {
        if (lesson == null || lesson.isBlank()) {
            throw new IllegalArgumentException(
                    "lesson is " + (lesson == null ? "missing" : "blank") + "; state the lesson to remember");
        }
        return EpisodeInput.builder(namespace, situation, LESSON_ACTION, EpisodeOutcome.SUCCESS)
                .category(category == null ? EpisodeCategory.DECISION : category)
                .importance(Importance.clamp(importance == null ? 5 : importance))
                .generateReflection(false)
                .lessonLearned(lesson)
                .build();
    }

    /**
     * @param errorMessage an error message, or {@code null}
     * @return the first known error type that is a substring of the lower-cased message, in the fixed order
     *         of {@link Importance#KNOWN_ERROR_TYPES}, or {@code null}
     */
    public static String errorType(String errorMessage) {
        if (errorMessage == null) {
            return null;
        }
        String lower = errorMessage.toLowerCase(Locale.ROOT);
        for (String type : Importance.KNOWN_ERROR_TYPES) {
            if (lower.contains(type)) {
                return type;
            }
        }
        return null;
    }

    /**
     * Python's {@code str()} for the JSON-like values tools exchange: {@code null} → {@code None}, booleans →
     * {@code True}/{@code False}, strings as is, numbers by {@code toString()} (integers match Python; floats may
     * differ in exponent form), maps and lists as compact key-sorted JSON.
     *
     * @param value a value
     * @return its text
     */
    public static String pyStr(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof BigDecimal d) {
            return d.toString();
        }
        if (value instanceof Number || value instanceof Character) {
            return value.toString();
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return CanonicalJson.write(value);
        }
        return String.valueOf(value);
    }

    private static EpisodeOutcome outcomeOf(Map<String, ?> result) {
        if (Boolean.FALSE.equals(result.get("success"))) {
            return EpisodeOutcome.FAILURE;
        }
        Object status = result.get("status");
        if ("timeout".equals(status)) {
            return EpisodeOutcome.TIMEOUT;
        }
        if ("partial".equals(status)) {
            return EpisodeOutcome.PARTIAL;
        }
        return EpisodeOutcome.SUCCESS;
    }

    private static String errorMessage(Map<String, ?> result) {
        Object error = result.get("error");
        if (error == null || error instanceof String s && s.isEmpty() || Boolean.FALSE.equals(error)) {
            return null;
        }
        return CodePoints.head(pyStr(error), 500);
    }

    private static String argumentsJson(Map<String, ?> args) {
        if (args == null || args.isEmpty()) {
            return "{}";
        }
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, ?> arg : args.entrySet()) {
            if (json.length() > 1) {
                json.append(", ");
            }
            json.append(jsonString(arg.getKey()))
                    .append(": ")
                    .append(jsonString(CodePoints.head(pyStr(arg.getValue()), 100)));
        }
        return json.append('}').toString();
    }

    private static String jsonString(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Map.Entry<String, Object>> agentResults(Object agentResults) {
        List<Map.Entry<String, Object>> entries = new ArrayList<>();
        if (agentResults instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (entry.getKey() != null && !String.valueOf(entry.getKey()).isBlank()) {
                    entries.add(Map.entry(
                            String.valueOf(entry.getKey()), entry.getValue() == null ? Map.of() : entry.getValue()));
                }
            }
        } else if (agentResults instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> map
                        && map.get("agent_id") != null
                        && !String.valueOf(map.get("agent_id")).isBlank()) {
                    entries.add(Map.entry(String.valueOf(map.get("agent_id")), map));
                }
            }
        }
        return entries;
    }

    private static Map<String, ?> stringKeys(Map<?, ?> map) {
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copy;
    }
}
