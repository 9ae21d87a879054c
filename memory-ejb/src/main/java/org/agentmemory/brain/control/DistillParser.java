package org.agentmemory.brain.control;

import java.util.Map;
import org.agentmemory.platform.llm.JsonAnswers;
import org.agentmemory.platform.llm.UnreadableAnswerException;

/**
 * Reads a model's distillation (spec §12.2 step 4): the JSON object found by the ladder of {@link JsonAnswers}, with
 * {@code title} and {@code body} non-blank strings, {@code category} a string and {@code confidence} a number (both
 * optional: {@code lesson} and 0.5, as {@code DistilledKnowledge}'s defaults), then {@link Distilled#of} applies the
 * confidence rule and the limits. A category outside the four is not an error: it becomes {@code note}.
 */
public final class DistillParser {

    private DistillParser() {}

    /**
     * @param content the model's answer
     * @return the knowledge after the confidence rule
     * @throws UnreadableAnswerException when no JSON object is found, or a field is missing, blank or of the wrong type
     */
    public static Distilled parse(String content) {
        Map<String, Object> object = JsonAnswers.object(content);
        String title = text(object, "title", content);
        String body = text(object, "body", content);
        Object category = object.getOrDefault("category", "lesson");
        Object confidence = object.getOrDefault("confidence", 0.5);
        if (!(category instanceof String c)) {
            throw new UnreadableAnswerException("The model's distillation has a non-string 'category': "
                    + UnreadableAnswerException.excerpt(content));
        }
        if (!(confidence instanceof Number n)) {
            throw new UnreadableAnswerException("The model's distillation has a non-numeric 'confidence': "
                    + UnreadableAnswerException.excerpt(content));
        }
        return Distilled.of(title, body, c, n.doubleValue());
    }

    private static String text(Map<String, Object> object, String field, String content) {
        Object value = object.get(field);
        if (!(value instanceof String text) || text.isBlank()) {
            throw new UnreadableAnswerException("The model's distillation has "
                    + (value == null ? "no" : "a blank or non-string") + " '" + field
                    + "'; title and body are required strings: " + UnreadableAnswerException.excerpt(content));
        }
        return text;
    }
}
