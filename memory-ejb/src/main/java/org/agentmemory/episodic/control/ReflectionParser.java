package org.agentmemory.episodic.control;

import java.io.IOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentmemory.api.episodic.ReflectionResult;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.text.CodePoints;

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
 * cycle's distillation answer (spec §12.2) uses the same ladder through {@link #extractObject(String)}.
 */
public final class ReflectionParser {

    private static final Pattern FENCE = Pattern.compile("```(?:json|JSON)?[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);
    private static final int EXCERPT = 200;

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
        if (content == null || content.isBlank()) {
            throw new ReflectionParseException(
                    "The model's answer is " + (content == null ? "missing" : "empty") + "; expected a JSON object");
        }
        Map<String, Object> object = tryObject(content.strip());
        if (object != null) {
            return object;
        }
        Matcher fence = FENCE.matcher(content);
        if (fence.find()) {
            object = tryObject(fence.group(1).strip());
            if (object != null) {
                return object;
            }
        }
        for (int start = content.indexOf('{'); start >= 0; start = content.indexOf('{', start + 1)) {
            int end = balancedEnd(content, start);
            if (end < 0) {
                break;
            }
            object = tryObject(content.substring(start, end + 1));
            if (object != null) {
                return object;
            }
        }
        throw new ReflectionParseException("The model's answer holds no JSON object (tried the whole text, a "
                + "```json fenced block and the first {...} span): " + excerpt(content));
    }

    private static Map<String, Object> tryObject(String text) {
        if (!text.startsWith("{")) {
            return null;
        }
        try {
            return CanonicalJson.parseObject(text);
        } catch (IOException e) {
            return null;
        }
    }

    /** Index of the brace closing the one at {@code start}, or −1 when it is never closed. */
    private static int balancedEnd(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
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
        String oneLine = content.strip().replaceAll("\\s+", " ");
        return CodePoints.length(oneLine) <= EXCERPT ? oneLine : CodePoints.head(oneLine, EXCERPT) + "…";
    }
}
