package org.agentmemory.episodic.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.text.TextNormalization;
import org.agentmemory.platform.validation.InputRules;

/**
 * The input rules of episodic memory and the write form of its texts. Namespace ids follow the conversation
 * id rules (1–128 code points, no control characters, tenant at most 64); texts must be valid Unicode without
 * NUL. Texts are stored in NFC (so composed and decomposed spellings are the same episode and find each other);
 * ids are stored exactly as given.
 */
public final class EpisodeRules {

    private EpisodeRules() {}

    /**
     * @param prefix    field prefix for messages, e.g. {@code "inputs[2]."} or {@code ""}
     * @param namespace the namespace
     * @throws InvalidInputException naming {@code namespace.agentId} etc.
     */
    public static void checkNamespace(String prefix, MemoryNamespace namespace) throws InvalidInputException {
        if (namespace == null) {
            throw new InvalidInputException(
                    prefix + "namespace", "required", "namespace is required: at least {\"agentId\": …}.");
        }
        InputRules.checkTenant(namespace.tenantId());
        InputRules.checkId(prefix + "namespace.agentId", namespace.agentId());
        InputRules.checkOptionalId(prefix + "namespace.userId", namespace.userId());
        InputRules.checkOptionalId(prefix + "namespace.sessionId", namespace.sessionId());
        InputRules.checkOptionalId(prefix + "namespace.roomId", namespace.roomId());
        InputRules.checkOptionalId(prefix + "namespace.crewId", namespace.crewId());
    }

    /**
     * @param requested the request's cosine threshold, or {@code null} for the model's default
     * @param model     the episodic embedding model
     * @return the threshold recall applies, in [−1, 1]
     * @throws InvalidInputException ({@code scoreThreshold}, {@code range}) when it is outside [−1, 1] or NaN
     */
    public static double scoreThreshold(Double requested, org.agentmemory.platform.embedding.EmbeddingModel model)
            throws InvalidInputException {
        double threshold = requested != null ? requested : model.defaultScoreThreshold();
        if (!(threshold >= -1.0 && threshold <= 1.0)) {
            throw new InvalidInputException(
                    "scoreThreshold",
                    "range",
                    "scoreThreshold is " + threshold
                            + "; it must be a cosine similarity between -1 and 1 (default for "
                            + model.name() + ": " + model.defaultScoreThreshold() + ").");
        }
        return threshold;
    }

    /**
     * Checks an input and returns it with every text in NFC.
     *
     * @param prefix field prefix for messages
     * @param input  the input
     * @return the normalized input
     * @throws InvalidInputException when a field breaks a rule
     */
    public static EpisodeInput normalized(String prefix, EpisodeInput input) throws InvalidInputException {
        if (input == null) {
            throw new InvalidInputException(
                    prefix.isEmpty() ? "input" : prefix.substring(0, prefix.length() - 1),
                    "required",
                    "The episode input is required.");
        }
        checkNamespace(prefix, input.namespace());
        String[][] texts = {
            {"situation", input.situation()},
            {"actionTaken", input.actionTaken()},
            {"outcomeDetails", input.outcomeDetails()},
            {"errorType", input.errorType()},
            {"errorMessage", input.errorMessage()},
            {"lessonLearned", input.lessonLearned()}
        };
        for (String[] text : texts) {
            InputRules.checkText(
                    prefix + text[0], text[1], InputRules.Controls.NO_NUL, InputRules.MAX_MESSAGE_CODE_POINTS);
        }
        if (input.errorType() != null && input.errorType().length() > 128) {
            // The column holds 128 characters as every supported database counts them (H2 counts UTF-16 units).
            throw new InvalidInputException(
                    prefix + "errorType",
                    "max-length",
                    "errorType takes "
                            + input.errorType().length()
                            + " UTF-16 units; the limit is 128 (128 characters of most scripts,"
                            + " 64 emoji or other characters outside the Basic Multilingual Plane).");
        }
        List<String> tools = texts(prefix + "relatedTools", input.relatedTools());
        List<String> entities = texts(prefix + "relatedEntities", input.relatedEntities());
        InputRules.checkJsonObject(prefix + "metadata", input.metadata());
        return new EpisodeInput(
                input.namespace(),
                TextNormalization.nfc(input.situation()),
                TextNormalization.nfc(input.actionTaken()),
                input.outcome(),
                TextNormalization.nfc(input.outcomeDetails()),
                input.errorType(),
                TextNormalization.nfc(input.errorMessage()),
                input.category(),
                input.importance(),
                tools,
                entities,
                input.ttlDays(),
                input.metadata(),
                input.generateReflection(),
                TextNormalization.nfc(input.lessonLearned()));
    }

    private static List<String> texts(String field, List<String> values) throws InvalidInputException {
        List<String> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            if (value == null) {
                throw new InvalidInputException(field + "[" + i + "]", "required", field + "[" + i + "] is null.");
            }
            InputRules.checkText(
                    field + "[" + i + "]", value, InputRules.Controls.NONE, InputRules.MAX_TOOL_NAME_CODE_POINTS);
            out.add(TextNormalization.nfc(value));
        }
        return out;
    }

    /**
     * The deduplication key of an input: SHA-256 (hex) of the canonical JSON of its namespace, situation,
     * action, outcome, outcome details, error type, error message, category, explicit lesson, related tools and
     * entities. Identical content in one namespace has one key.
     *
     * @param input a normalized input
     * @return 64 hex digits
     */
    public static String contentKey(EpisodeInput input) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("namespace", input.namespace().filter());
        content.put("situation", input.situation());
        content.put("actionTaken", input.actionTaken());
        content.put("outcome", input.outcome().value());
        content.put("outcomeDetails", input.outcomeDetails());
        content.put("errorType", input.errorType());
        content.put("errorMessage", input.errorMessage());
        content.put("category", input.category().value());
        content.put("lessonLearned", input.lessonLearned());
        content.put("relatedTools", input.relatedTools());
        content.put("relatedEntities", input.relatedEntities());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(CanonicalJson.write(content).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
