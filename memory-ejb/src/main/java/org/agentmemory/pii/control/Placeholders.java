package org.agentmemory.pii.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.MessageRole;

/**
 * A thread's values and their placeholders (issue 34 items 1 and 3, seed 002): the merge of its messages in first-seen
 * order, one detection per value key, and the placeholder {@code <<LABEL_n>>} of each value, n counted per label from 1
 * in first-seen order and never reused. Pure.
 */
public final class Placeholders {

    /** A placeholder as written into a text. */
    public static final Pattern PLACEHOLDER = Pattern.compile("<<([A-Z][A-Z0-9_]*)_(\\d{1,9})>>");

    private final LinkedHashMap<String, Detection> byKey = new LinkedHashMap<>();
    private final LinkedHashMap<String, MessageRole> provenance = new LinkedHashMap<>();
    private final Map<String, String> valueByPlaceholder = new HashMap<>();
    private final Map<String, Integer> lastNumber = new HashMap<>();

    /**
     * @param messages a thread's messages in first-seen order
     */
    public Placeholders(List<StoredMessage> messages) {
        for (StoredMessage message : messages) {
            for (Detection d : message.detections()) {
                String key = valueKey(d.value());
                if (byKey.putIfAbsent(key, d) == null) {
                    provenance.put(key, message.role());
                }
                note(d.placeholder(), d.value());
            }
        }
    }

    private void note(String placeholder, String value) {
        if (placeholder == null) {
            return;
        }
        Matcher m = PLACEHOLDER.matcher(placeholder);
        if (m.matches()) {
            valueByPlaceholder.putIfAbsent(placeholder, value);
            lastNumber.merge(m.group(1), Integer.parseInt(m.group(2)), Math::max);
        }
    }

    /**
     * The key a value is merged under (seed 002): lower case, whitespace removed.
     *
     * @param value a detected value
     * @return its key
     */
    public static String valueKey(String value) {
        StringBuilder key = new StringBuilder(value.length());
        value.codePoints()
                .filter(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c))
                .forEach(key::appendCodePoint);
        return key.toString().toLowerCase(Locale.ROOT);
    }

    /** @return one detection per value key, in first-seen order */
    public List<Detection> merged() {
        return new ArrayList<>(byKey.values());
    }

    /** @return value key → role of the message it was first seen in, in first-seen order */
    public Map<String, MessageRole> provenance() {
        return new LinkedHashMap<>(provenance);
    }

    /**
     * Gives each detection the thread's placeholder of its value: the one the value already has, else the next number
     * of its label. The numbers handed out are remembered, so later calls continue from them.
     *
     * @param detections detections of a new message
     * @return the same detections with placeholders
     */
    public List<Detection> assign(List<Detection> detections) {
        List<Detection> out = new ArrayList<>(detections.size());
        for (Detection d : detections) {
            String key = valueKey(d.value());
            Detection known = byKey.get(key);
            String placeholder;
            if (known != null && known.placeholder() != null) {
                placeholder = known.placeholder();
            } else {
                int next = lastNumber.merge(d.label(), 1, Integer::sum);
                placeholder = "<<" + d.label() + "_" + next + ">>";
                note(placeholder, d.value());
            }
            Detection withPlaceholder = d.withPlaceholder(placeholder);
            byKey.putIfAbsent(key, withPlaceholder);
            out.add(withPlaceholder);
        }
        return out;
    }

    /**
     * The thread's known values where they occur again in a text, case ignored, as whole words (not inside a longer
     * word or number), so that a value detected once keeps its placeholder on later turns without being detected again.
     *
     * @param text a text
     * @return one detection per occurrence, with the known value's label, confidence and placeholder; code-point
     *         offsets; unsorted, possibly overlapping
     */
    public List<Detection> occurrences(String text) {
        List<Detection> found = new ArrayList<>();
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.length() != text.length()) {
            return found; // lower-casing changed the length: offsets would not map back
        }
        for (Detection known : byKey.values()) {
            String value = known.value().toLowerCase(Locale.ROOT);
            if (value.length() < 2 || value.length() != known.value().length()) {
                continue;
            }
            for (int at = lower.indexOf(value); at >= 0; at = lower.indexOf(value, at + 1)) {
                int end = at + value.length();
                if (wordEdge(text, at - 1) && wordEdge(text, end)) {
                    int start = text.codePointCount(0, at);
                    found.add(new Detection(
                            known.label(),
                            text.substring(at, end),
                            start,
                            start + text.codePointCount(at, end),
                            known.confidence(),
                            known.placeholder()));
                }
            }
        }
        return found;
    }

    private static boolean wordEdge(String text, int index) {
        return index < 0 || index >= text.length() || !Character.isLetterOrDigit(text.charAt(index));
    }

    /**
     * @param text        a text
     * @param detections  non-overlapping detections of it, sorted by start, with placeholders (code-point offsets)
     * @return the text with each detection replaced by its placeholder
     */
    public static String replace(String text, List<Detection> detections) {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0; // UTF-16 index
        int cp = 0; // code points before at
        for (Detection d : detections) {
            int from = text.offsetByCodePoints(at, d.start() - cp);
            int to = text.offsetByCodePoints(from, d.end() - d.start());
            out.append(text, at, from).append(d.placeholder());
            at = to;
            cp = d.end();
        }
        return out.append(text, at, text.length()).toString();
    }

    /**
     * Restores this thread's placeholders; others stay as they are.
     *
     * @param text a text, e.g. a model's reply
     * @return the restored text and how many placeholders were replaced
     */
    public Restoration restore(String text) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        int restored = 0;
        while (m.find()) {
            String value = valueByPlaceholder.get(m.group());
            if (value != null) {
                restored++;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return new Restoration(out.toString(), restored);
    }

    /**
     * @param text     the restored text
     * @param restored how many placeholders were replaced
     */
    public record Restoration(String text, int restored) {}
}
