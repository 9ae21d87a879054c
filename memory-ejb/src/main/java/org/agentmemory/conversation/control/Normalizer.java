package org.agentmemory.conversation.control;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.text.TextNormalization;
import org.agentmemory.platform.validation.InputRules;

/**
 * Stage 0 normalization (spec §2): canonical text for every stored turn, so that token counts and content
 * ids are stable and tracebacks do not dominate a turn.
 *
 * <p>Pure and idempotent: {@code normalizeTurn(normalizeTurn(t)).equals(normalizeTurn(t))}; inputs are never
 * modified. Three places where the spec's literal algorithm is not idempotent are repaired, each only for
 * inputs on which the literal algorithm would give a result that a second pass changes:
 * <ol>
 * <li>Rule 1 (NFC) runs first, but rules 2b–2e then delete characters, which can bring a base character and
 * a combining mark together (e, ESC {@code [0m}, U+0301 becomes e + U+0301, which is not NFC). When rules 2b–2e
 * deleted anything, NFC is applied once more right after rule 2e.</li>
 * <li>{@link #canonicalJsonText} can turn escapes into raw characters that rules 1–2 would then change
 * (an escaped DEL becomes a raw DEL; an escaped e + U+0301 becomes a non-NFC pair). A tool
 * output keeps its canonical JSON form only when that form is itself normalized; otherwise it keeps the
 * normalized text (see {@link #normalizeOutput}).</li>
 * <li>{@link #condenseTraceback(String, int)} condenses until the text no longer changes: the spec's single
 * pass is not a fixed point when indented lines follow the last frame after a blank line. For real
 * tracebacks one pass is the fixed point, so their result is the spec's.</li>
 * </ol>
 * Everything else (ANSI handling, line rules, JSON form) follows the spec literally.
 */
public final class Normalizer {

    /** The normalization version stamped on every normalized turn ({@code normVersion}, spec §2). */
    public static final String NORM_VERSION = "1";

    /** The line that marks a Python traceback (spec §2.4). */
    public static final String TRACEBACK_HEADER = "Traceback (most recent call last):";

    /** Frame blocks a condensed traceback keeps (spec §2.4 {@code keep_frames=3}). */
    public static final int KEEP_FRAMES = 3;

    private static final char ESC = 0x1B;
    private static final char BEL = 0x07;

    /**
     * The Python system parses tool outputs with orjson, which accepts duplicate keys (the last one wins);
     * the shared canonical reader rejects them, so outputs get a reader that only differs in that.
     */
    private static final ObjectReader OUTPUT_READER = ((JsonMapper) CanonicalJson.mapper())
            .rebuild()
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build()
            .readerFor(Object.class);

    private Normalizer() {}

    // ---------------------------------------------------------------- rules 1–3 (spec §2.1)

    /**
     * Rules 1–3 of spec §2.1, in this order: (1) Unicode NFC; (2a) CR LF → LF, then lone CR → LF; (2b) delete
     * ANSI CSI sequences {@code ESC [ [0x30–0x3F]* [0x20–0x2F]* [0x40–0x7E]}; (2c) delete OSC sequences
     * {@code ESC ] [^BEL]* BEL} (the ST terminator is not handled); (2d) delete SS3 sequences {@code ESC O}
     * + one code point other than LF; (2e) delete C0 controls 0x00–0x08, 0x0B, 0x0C, 0x0E–0x1F and DEL 0x7F
     * (TAB and LF stay; a stray ESC goes here); (3a) strip spaces and tabs at the end of every line; (3b)
     * collapse runs of 4 or more LFs to 3. Each of 2b, 2c and 2d is one left-to-right pass over the result of
     * the previous rule, without rescanning what a deletion joins, as Python's {@code re.sub} does.
     *
     * <p>Deviation for idempotence: when 2b–2e deleted anything, NFC is applied again after 2e (see the
     * class comment). When the text left after the deletions is NFC, as it nearly always is, this changes
     * nothing.
     *
     * @param text any text; never {@code null}
     * @return the normalized text (the same instance when nothing changed)
     * @throws NullPointerException when {@code text} is {@code null}
     */
    public static String normalizeText(String text) {
        Objects.requireNonNull(text, "text");
        String out = nfc(text);
        out = lineBreaksToLf(out);
        int beforeDeletion = out.length();
        if (out.indexOf(ESC) >= 0) {
            out = deleteCsi(out);
            out = deleteOsc(out);
            out = deleteSs3(out);
        }
        out = deleteControls(out);
        if (out.length() != beforeDeletion) {
            out = nfc(out);
        }
        return stripLineEndsAndCollapseBlankRuns(out);
    }

    /** Rule 1 (one implementation for the whole service: {@link TextNormalization#nfc}). */
    private static String nfc(String text) {
        return TextNormalization.nfc(text);
    }

    /** Rule 2a: CR LF → LF, then every lone CR → LF. */
    private static String lineBreaksToLf(String text) {
        if (text.indexOf('\r') < 0) {
            return text;
        }
        return text.replace("\r\n", "\n").replace('\r', '\n');
    }

    /** Where an escape sequence starting at an ESC ends (exclusive), or -1 when none starts there. */
    @FunctionalInterface
    private interface SequenceEnd {
        int at(String text, int esc);
    }

    /**
     * Deletes every match of one escape-sequence kind in a single left-to-right pass. After a match the scan
     * resumes at its end, and after a failed ESC at the next character, exactly like a regex substitution,
     * so an ESC that a deletion places before a '[' is not matched again in the same pass.
     */
    private static String deleteSequences(String text, SequenceEnd sequenceEnd) {
        StringBuilder out = null;
        int copiedUpTo = 0;
        int esc = text.indexOf(ESC);
        while (esc >= 0) {
            int end = sequenceEnd.at(text, esc);
            if (end < 0) {
                esc = text.indexOf(ESC, esc + 1);
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length());
            }
            out.append(text, copiedUpTo, esc);
            copiedUpTo = end;
            esc = text.indexOf(ESC, end);
        }
        if (out == null) {
            return text;
        }
        return out.append(text, copiedUpTo, text.length()).toString();
    }

    /**
     * Rule 2b. The three byte classes are disjoint, so greedy matching without backtracking is exact.
     */
    private static String deleteCsi(String text) {
        return deleteSequences(text, (s, esc) -> {
            int i = esc + 1;
            if (i >= s.length() || s.charAt(i) != '[') {
                return -1;
            }
            i++;
            while (i < s.length() && s.charAt(i) >= 0x30 && s.charAt(i) <= 0x3F) {
                i++;
            }
            while (i < s.length() && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x2F) {
                i++;
            }
            return i < s.length() && s.charAt(i) >= 0x40 && s.charAt(i) <= 0x7E ? i + 1 : -1;
        });
    }

    /**
     * Rule 2c. A match runs to the first BEL after {@code ESC ]}; there is none past the last BEL of the text,
     * which keeps many unterminated sequences linear.
     */
    private static String deleteOsc(String text) {
        int lastBel = text.lastIndexOf(BEL);
        if (lastBel < 0) {
            return text;
        }
        return deleteSequences(text, (s, esc) -> {
            if (esc + 1 >= s.length() || s.charAt(esc + 1) != ']' || esc + 2 > lastBel) {
                return -1;
            }
            return s.indexOf(BEL, esc + 2) + 1;
        });
    }

    /** Rule 2d: the final "character" is one code point (Python {@code .}), which never matches LF. */
    private static String deleteSs3(String text) {
        return deleteSequences(text, (s, esc) -> {
            int i = esc + 2;
            if (i >= s.length() || s.charAt(esc + 1) != 'O' || s.charAt(i) == '\n') {
                return -1;
            }
            return i + Character.charCount(s.codePointAt(i));
        });
    }

    private static boolean isDeletedControl(char c) {
        return c <= 0x08 || c == 0x0B || c == 0x0C || (c >= 0x0E && c <= 0x1F) || c == 0x7F;
    }

    /** Rule 2e. */
    private static String deleteControls(String text) {
        int first = -1;
        for (int i = 0; i < text.length(); i++) {
            if (isDeletedControl(text.charAt(i))) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        out.append(text, 0, first);
        for (int i = first + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isDeletedControl(c)) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Rules 3a and 3b in one pass. Spaces and tabs are kept tentatively and dropped when the line ends; the
     * LF run length survives dropped blanks, so {@code "\n \n\n\n"} collapses exactly as 3a-then-3b would.
     */
    private static String stripLineEndsAndCollapseBlankRuns(String text) {
        if (!needsLineCleanup(text)) {
            return text;
        }
        char[] out = new char[text.length()];
        int length = 0;
        int blankRunStart = -1;
        int newlineRun = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                if (blankRunStart < 0) {
                    blankRunStart = length;
                }
                out[length++] = c;
            } else if (c == '\n') {
                if (blankRunStart >= 0) {
                    length = blankRunStart;
                    blankRunStart = -1;
                }
                if (newlineRun < 3) {
                    out[length++] = c;
                }
                newlineRun++;
            } else {
                out[length++] = c;
                blankRunStart = -1;
                newlineRun = 0;
            }
        }
        if (blankRunStart >= 0) {
            length = blankRunStart;
        }
        return new String(out, 0, length);
    }

    private static boolean needsLineCleanup(String text) {
        int newlineRun = 0;
        char previous = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                if (previous == ' ' || previous == '\t' || ++newlineRun >= 4) {
                    return true;
                }
            } else {
                newlineRun = 0;
            }
            previous = c;
        }
        return previous == ' ' || previous == '\t';
    }

    // ---------------------------------------------------------------- tool output and input (spec §2.2, §2.3)

    /**
     * Canonical JSON for a tool OUTPUT (spec §2.2). If the text stripped of whitespace (Python
     * {@code str.strip()}: Unicode whitespace) is empty, the text is returned unchanged. If the stripped text
     * parses as one JSON object or array, the result is its compact form with keys sorted at every depth and
     * non-ASCII written raw ({@link CanonicalJson}); duplicate keys are accepted, the last one wins, as with
     * Python's parsers. Anything else, a scalar such as {@code 42} or {@code true}, or invalid JSON, is
     * returned unchanged, surrounding whitespace included. So is JSON whose strings hold an unpaired surrogate
     * through a {@code \\u} escape (such as {@code "\\ud800"}): written raw, the canonical form would hold a
     * character no UTF-8 store can keep, and the database would change it; the text as sent keeps it escaped.
     *
     * @param text the output text; never {@code null}
     * @return the canonical JSON or the original text
     */
    public static String canonicalJsonText(String text) {
        String stripped = pythonStrip(text);
        if (stripped.isEmpty()) {
            return text;
        }
        // Only objects and arrays are rewritten, and they must start with '{' or '[': every other text is
        // answered without paying for a parse error.
        char first = stripped.charAt(0);
        if (first != '{' && first != '[') {
            return text;
        }
        Object value;
        try {
            value = OUTPUT_READER.readValue(stripped);
        } catch (IOException e) {
            return text;
        }
        if (!(value instanceof Map) && !(value instanceof List)) {
            return text;
        }
        String canonical = CanonicalJson.write(value);
        return InputRules.unpairedSurrogateAt(canonical) >= 0 ? text : canonical;
    }

    /**
     * Normalizes a tool OUTPUT (spec §2.5): {@link #normalizeText} then {@link #canonicalJsonText}, with one
     * guard for idempotence: when the canonical JSON is not itself normalized text (it can hold a raw DEL or
     * a non-NFC pair that were escapes in the original), the normalized text is kept instead. This happens
     * only for JSON whose strings escape control or combining characters; ordinary JSON is canonicalized.
     *
     * @param output the output; never {@code null}
     * @return the normalized output
     */
    public static String normalizeOutput(String output) {
        String text = normalizeText(output);
        String json = canonicalJsonText(text);
        if (json.equals(text)) {
            return text;
        }
        return normalizeText(json).equals(json) ? json : text;
    }

    /**
     * Rule 4 (spec §2.3): the tool INPUT after a round trip through canonical JSON, so keys are sorted at
     * every depth and values are plain JSON values (nested {@code Map}s in key order, {@code List}s,
     * {@code String}, {@code Integer}/{@code Long}/{@code BigInteger}, {@code BigDecimal} for any number
     * with a fraction or exponent, {@code Boolean}, {@code null}).
     *
     * @param input the arguments; never {@code null}
     * @return a new, deeply unmodifiable map in sorted key order
     * @throws IllegalArgumentException when a value cannot be written as JSON
     */
    public static Map<String, Object> canonicalInput(Map<String, ?> input) {
        String json;
        try {
            json = CanonicalJson.write(input);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(
                    "Tool input is not a JSON object: " + e.getMessage()
                            + "; use only strings, numbers, booleans, null, lists and maps with string keys",
                    e);
        }
        try {
            return deepUnmodifiable(CanonicalJson.parseObject(json));
        } catch (IOException e) {
            // Our own canonical output always parses back; failing here is a bug, not bad input.
            throw new UncheckedIOException("canonical JSON did not parse back: " + json, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T deepUnmodifiable(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, deepUnmodifiable(v)));
            return (T) Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(deepUnmodifiable(v)));
            return (T) Collections.unmodifiableList(copy);
        }
        return value;
    }

    /** Python's {@code str.strip()}: Unicode whitespace is bidi class WS, B or S, or category Zs. */
    static String pythonStrip(String text) {
        int start = 0;
        int end = text.length();
        while (start < end) {
            int cp = text.codePointAt(start);
            if (!isPythonSpace(cp)) {
                break;
            }
            start += Character.charCount(cp);
        }
        while (end > start) {
            int cp = text.codePointBefore(end);
            if (!isPythonSpace(cp)) {
                break;
            }
            end -= Character.charCount(cp);
        }
        return text.substring(start, end);
    }

    private static boolean isPythonSpace(int cp) {
        if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D)) {
            return true;
        }
        if (cp < 0x1C) {
            return false;
        }
        byte bidi = Character.getDirectionality(cp);
        return bidi == Character.DIRECTIONALITY_WHITESPACE
                || bidi == Character.DIRECTIONALITY_PARAGRAPH_SEPARATOR
                || bidi == Character.DIRECTIONALITY_SEGMENT_SEPARATOR
                || Character.getType(cp) == Character.SPACE_SEPARATOR;
    }

    // ---------------------------------------------------------------- rule 5 (spec §2.4)

    /**
     * {@link #condenseTraceback(String, int)} with {@value #KEEP_FRAMES} frames.
     *
     * @param text any text; never {@code null}
     * @return the condensed text, or {@code text} when it holds no traceback header
     */
    public static String condenseTraceback(String text) {
        return Tracebacks.condense(text, KEEP_FRAMES);
    }

    /**
     * Rule 5 (spec §2.4): condenses a Python traceback to its header, its last frames and the exception
     * ({@link Tracebacks#condense}).
     *
     * @param text       any text; never {@code null}
     * @param keepFrames how many trailing frame blocks to keep; 0 or less keeps none (as the Python system)
     * @return the condensed text, or {@code text} when it holds no traceback header
     */
    public static String condenseTraceback(String text, int keepFrames) {
        return Tracebacks.condense(text, keepFrames);
    }

    // ---------------------------------------------------------------- turns (spec §2.5)

    /**
     * Normalizes an error text (spec §2.5): {@link #normalizeText} then {@link #condenseTraceback}.
     *
     * @param error the error, or {@code null}
     * @return the normalized error, or {@code null}
     */
    public static String normalizeError(String error) {
        return error == null ? null : condenseTraceback(normalizeText(error));
    }

    /**
     * Normalizes one tool invocation (spec §2.5): input by rule 4, output by {@link #normalizeOutput}, error
     * by {@link #normalizeError}; every other field is copied.
     *
     * @param invocation the invocation; never {@code null}; not modified
     * @return a new invocation
     * @throws IllegalArgumentException when the input holds a value that cannot be written as JSON
     */
    public static ToolInvocationRecord normalizeInvocation(ToolInvocationRecord invocation) {
        String output = invocation.output() == null ? null : normalizeOutput(invocation.output());
        return invocation.withContent(canonicalInput(invocation.input()), output, normalizeError(invocation.error()));
    }

    /**
     * Normalizes a turn (spec §2.5): user message, assistant response and context by {@link #normalizeText};
     * error by {@link #normalizeError}; every invocation by {@link #normalizeInvocation}; {@code normVersion}
     * set to {@value #NORM_VERSION}. Every other field, the token count included, is copied unchanged.
     * {@code null} texts stay {@code null}.
     *
     * @param turn the turn; never {@code null}; not modified
     * @return a new, normalized turn
     * @throws IllegalArgumentException when a tool input holds a value that cannot be written as JSON
     */
    public static TurnRecord normalizeTurn(TurnRecord turn) {
        List<ToolInvocationRecord> invocations =
                new ArrayList<>(turn.toolInvocations().size());
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            invocations.add(normalizeInvocation(invocation));
        }
        return turn.withText(
                        normalizeNullable(turn.userMessage()),
                        normalizeNullable(turn.assistantResponse()),
                        normalizeNullable(turn.contextUsed()),
                        normalizeError(turn.error()))
                .withToolInvocations(invocations)
                .withNormVersion(NORM_VERSION);
    }

    private static String normalizeNullable(String text) {
        return text == null ? null : normalizeText(text);
    }
}
