package org.agentmemory.working.control;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.agentmemory.api.working.ContextFrame;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * Context frames as stored (canonical JSON: {@code {"data":{…},"pushedAt":"…","type":"…"}} for one frame, an array of
 * them, bottom first, for a stack), and the words of a frame's data that re-ranking compares.
 */
public final class ContextFrames {

    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{M}\\p{N}]+");

    private ContextFrames() {}

    /**
     * @param frame a frame, or {@code null}
     * @return its stored form, or {@code null} for {@code null}
     */
    public static String write(ContextFrame frame) {
        return frame == null ? null : CanonicalJson.write(map(frame));
    }

    /**
     * @param frames a stack, bottom first
     * @return its stored form ({@code []} when empty)
     */
    public static String writeStack(List<ContextFrame> frames) {
        List<Map<String, Object>> out = new ArrayList<>(frames.size());
        for (ContextFrame frame : frames) {
            out.add(map(frame));
        }
        return CanonicalJson.write(out);
    }

    /**
     * @param stored a stored frame, or {@code null}
     * @return the frame, or {@code null}
     * @throws IllegalStateException when the text is not a stored frame
     */
    public static ContextFrame read(String stored) {
        if (stored == null || stored.isEmpty()) {
            return null;
        }
        try {
            return frame(CanonicalJson.parse(stored));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("A stored context frame is not valid: " + e.getMessage(), e);
        }
    }

    /**
     * @param stored a stored stack, or {@code null}
     * @return its frames, bottom first (a new, mutable list)
     * @throws IllegalStateException when the text is not a stored stack
     */
    public static List<ContextFrame> readStack(String stored) {
        List<ContextFrame> frames = new ArrayList<>();
        if (stored == null || stored.isEmpty()) {
            return frames;
        }
        try {
            for (Object each : (List<?>) CanonicalJson.parse(stored)) {
                frames.add(frame(each));
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("A stored context stack is not valid: " + e.getMessage(), e);
        }
        return frames;
    }

    /**
     * The words of a frame's data: the runs of letters, marks and digits of its keys and values at every depth, lower
     * case. The seed compares the words of Python's {@code str(data)} split at spaces, so {@code 'research'} and
     * {@code 'research'}} (quotes and braces attached) differ; words are compared without punctuation here.
     *
     * @param data a frame's data, or {@code null}
     * @return its distinct words, sorted
     */
    public static Set<String> words(Map<String, Object> data) {
        Set<String> words = new TreeSet<>();
        collect(data, words);
        return words;
    }

    private static void collect(Object value, Set<String> words) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                collect(String.valueOf(e.getKey()), words);
                collect(e.getValue(), words);
            }
        } else if (value instanceof List<?> list) {
            for (Object item : list) {
                collect(item, words);
            }
        } else if (value != null) {
            for (String word : NOT_WORD.split(value.toString())) {
                if (!word.isEmpty()) {
                    words.add(word.toLowerCase(Locale.ROOT));
                }
            }
        }
    }

    private static Map<String, Object> map(ContextFrame frame) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", frame.type());
        out.put("data", frame.data() == null ? Map.of() : frame.data());
        if (frame.pushedAt() != null) {
            out.put("pushedAt", frame.pushedAt().toString());
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static ContextFrame frame(Object stored) {
        Map<String, Object> map = (Map<String, Object>) stored;
        Object data = map.get("data");
        Object pushedAt = map.get("pushedAt");
        try {
            return new ContextFrame(
                    (String) map.get("type"),
                    data == null ? new LinkedHashMap<>() : new LinkedHashMap<>((Map<String, Object>) data),
                    pushedAt == null ? null : Instant.parse((String) pushedAt));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("pushedAt is not an instant: " + pushedAt, e);
        }
    }
}
