package org.agentmemory.platform.llm;

import java.io.IOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * Finds the JSON object in a chat model's answer (spec §10.4 "Response handling", used by reflection and by the dream
 * cycle's distillation, §12.2 step 4). The ladder, first rung that yields a JSON object wins:
 * <ol>
 * <li>the whole content (surrounding blanks ignored) is a JSON object;</li>
 * <li>the content of the first fenced block opened by {@code ```json} (or a bare {@code ```}) is a JSON object;</li>
 * <li>the first balanced {@code {…}} span in the text (strings and escapes respected) that parses as a JSON
 * object.</li>
 * </ol>
 */
public final class JsonAnswers {

    private static final Pattern FENCE = Pattern.compile("```(?:json|JSON)?[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);

    private JsonAnswers() {}

    /**
     * @param content a model's answer
     * @return the first JSON object found
     * @throws UnreadableAnswerException when the content is {@code null}, blank or holds no JSON object
     */
    public static Map<String, Object> object(String content) {
        if (content == null || content.isBlank()) {
            throw new UnreadableAnswerException(
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
        throw new UnreadableAnswerException("The model's answer holds no JSON object (tried the whole text, a "
                + "```json fenced block and the first {...} span): " + UnreadableAnswerException.excerpt(content));
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
}
