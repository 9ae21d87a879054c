package org.agentmemory.episodic.control;

import java.util.Map;
import org.agentmemory.api.episodic.ReflectionResult;
import org.agentmemory.platform.llm.JsonAnswers;
import org.agentmemory.platform.llm.UnreadableAnswerException;

/**
 * Reads a reflection from a model's chat-completion content (spec §10.4 "Response handling", adapted to
 * a plain content string). The parsing ladder, first rung that yields a JSON object wins:
 * <ol>
 * <li>the whole content (surrounding blanks ignored) is a JSON object;</li>
 * <li>the content of the first fenced block opened by {@code ```json} (or a bare {@code ```}) is a JSON
 * object;</li>
 * <li>the first balanced {@code {…}} span in the text (strings and escapes respected) that parses as a
 * JSON object.</li>
 * </ol>
 * The object must then hold {@code reflection}, {@code lesson_learned} and {@code suggested_action} as
 * non-blank strings; other fields are ignored. Anything else is a {@link ReflectionParseException}.
 *
 * <p>Decision: blank values are rejected (the reference accepted empty strings) so that a model answer
 * never stores an empty lesson marked as a model lesson; the heuristic fallback then applies. The dream
 * cycle's distillation answer (spec §12.2) uses the same ladder ({@link JsonAnswers}).
 */
public final class ReflectionParser {

    private ReflectionParser() {}

    /**
     * @param content the model's answer
     * @return the reflection
     * @throws ReflectionParseException when no JSON object is found or a required field is missing, not a
     *                                  string or blank
     */
    public static ReflectionResult parse(String content) {
        Map<String, Object> object = extractObject(content);
        String reflection = requiredString(object, "reflection", content);
        String lesson = requiredString(object, "lesson_learned", content);
        String suggestion = requiredString(object, "suggested_action", content);
        return new ReflectionResult(reflection.strip(), lesson.strip(), suggestion.strip());
    }

    /**
     * The ladder above, without field validation.
     *
     * @param content a model's answer
     * @return the first JSON object found
     * @throws ReflectionParseException when the content is {@code null}, blank or holds no JSON object
     */
    public static Map<String, Object> extractObject(String content) {
        try {
            return JsonAnswers.object(content);
        } catch (UnreadableAnswerException e) {
            throw new ReflectionParseException(e.getMessage(), e);
        }
    }

    private static String requiredString(Map<String, Object> object, String field, String content) {
        Object value = object.get(field);
        if (!(value instanceof String text)) {
            throw new ReflectionParseException("The model's reflection "
                    + (value == null
                            ? "has no field '" + field + "'"
                            : "has a non-string '" + field + "' ("
                                    + value.getClass().getSimpleName() + ")")
                    + "; required string fields are reflection, lesson_learned and suggested_action: "
                    + excerpt(content));
        }
        if (text.isBlank()) {
            throw new ReflectionParseException("The model's reflection has a blank '" + field
                    + "'; reflection, lesson_learned and suggested_action must not be blank: " + excerpt(content));
        }
        return text;
    }

    static String excerpt(String content) {
        return UnreadableAnswerException.excerpt(content);
    }
}
